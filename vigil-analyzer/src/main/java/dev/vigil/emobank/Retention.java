package dev.vigil.emobank;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Timestamps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Retention (docs/DESIGN.md#the-emobank): live rows older than the retention age are compacted into
 * per-episode totals in {@code episodes.json}, so that the bank stays bounded. For each episode it
 * keeps the cause, the number of rows, the sum of their raw intensities, the count of each emotion
 * and the first and last row times. Decay makes such rows negligible long before they are
 * compacted: with the default half-life of 12 h and retention of 7 days, a compacted row had less
 * than 1/16000 of its intensity left.
 */
public final class Retention {
  /** The default age after which rows are compacted. */
  public static final Duration DEFAULT_AGE = Duration.ofDays(7);

  private Retention() {}

  /**
   * The outcome of compaction.
   *
   * @param kept live rows that stay in {@code emotions.jsonl}, in their order
   * @param episodes the new content of {@code episodes.json}
   * @param compacted how many rows were folded into totals
   */
  public record Result(List<EmotionRow> kept, ObjectNode episodes, int compacted) {}

  /** An empty {@code episodes.json}. */
  public static ObjectNode emptyEpisodes() {
    ObjectNode root = JsonNodeFactory.instance.objectNode();
    root.put("compacted_rows", 0);
    root.putObject("episodes");
    return root;
  }

  /** Folds the live rows older than {@code before} into a copy of {@code episodes}. */
  public static Result compact(List<EmotionRow> live, Instant before, ObjectNode episodes) {
    if (live.stream().noneMatch(row -> row.ts().isBefore(before))) {
      return new Result(live, episodes, 0); // nothing to fold: the rows stay as they are, uncopied
    }
    ObjectNode out = episodes.deepCopy();
    ObjectNode byEpisode = (ObjectNode) out.get("episodes");
    List<EmotionRow> kept = new LiveRows();
    int compacted = 0;
    for (EmotionRow row : live) {
      if (!row.ts().isBefore(before)) {
        kept.add(row);
        continue;
      }
      compacted++;
      ObjectNode e =
          byEpisode.has(row.episode())
              ? (ObjectNode) byEpisode.get(row.episode())
              : newEpisode(byEpisode, row);
      e.put("rows", e.get("rows").asLong() + 1);
      e.put("intensity_sum", e.get("intensity_sum").asDouble() + row.intensity());
      ObjectNode emotions = (ObjectNode) e.get("emotions");
      emotions.put(row.emotion(), emotions.path(row.emotion()).asLong(0) + 1);
      if (row.ts().isBefore(Instant.parse(e.get("first_ts").asText()))) {
        e.put("first_ts", Timestamps.format(row.ts()));
      }
      if (row.ts().isAfter(Instant.parse(e.get("last_ts").asText()))) {
        e.put("last_ts", Timestamps.format(row.ts()));
      }
    }
    out.put("compacted_rows", out.path("compacted_rows").asLong(0) + compacted);
    return new Result(kept, out, compacted);
  }

  private static ObjectNode newEpisode(ObjectNode byEpisode, EmotionRow row) {
    ObjectNode e = byEpisode.putObject(row.episode());
    e.put("cause", row.cause());
    e.put("rows", 0);
    e.put("intensity_sum", 0.0);
    e.putObject("emotions");
    e.put("first_ts", Timestamps.format(row.ts()));
    e.put("last_ts", Timestamps.format(row.ts()));
    return e;
  }
}
