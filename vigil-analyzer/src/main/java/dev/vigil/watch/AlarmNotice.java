package dev.vigil.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.Alarm;
import dev.vigil.io.Notice;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * {@code watch --on-alarm LEVEL} (docs/ALARM.md#alarms-from-watch): after each pass whose alarm
 * reaches {@code LEVEL}, one line on stderr naming the agent, the level, the score, the strongest
 * reasons and the report, and one JSON line appended to {@code OUT/alarms.jsonl} for whatever
 * watches that file (a log shipper, {@code tail -f}, a pager's agent).
 */
public final class AlarmNotice {
  /** The file the notices are appended to, in the agent's report directory. */
  static final String ALARMS_JSONL = "alarms.jsonl";

  /** The levels, lowest first. */
  static final List<String> LEVELS = List.of("ok", "watch", "alarm");

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final String threshold;

  /**
   * @param threshold {@code watch} or {@code alarm}; null: no notices
   * @throws IllegalArgumentException naming the level and the known ones
   */
  public AlarmNotice(String threshold) {
    if (threshold != null && !LEVELS.contains(threshold)) {
      throw new IllegalArgumentException(
          "--on-alarm: unknown level \"" + threshold + "\"; use one of " + LEVELS);
    }
    this.threshold = threshold;
  }

  /** Whether the alarm reaches the threshold. */
  boolean reaches(Alarm alarm) {
    return threshold != null && LEVELS.indexOf(alarm.level()) >= LEVELS.indexOf(threshold);
  }

  /**
   * Notifies when the pass's alarm reaches the threshold; a file that cannot be written is one line
   * on stderr.
   */
  public void after(Alarm alarm, String agent, Instant at, Path out, PrintWriter err) {
    if (!reaches(alarm)) {
      return;
    }
    Path report = out.resolve("report.md");
    err.println(
        Notice.line(
            at,
            "watch",
            Notice.Level.WARN,
            alarm.level().toUpperCase(java.util.Locale.ROOT)
                + " agent "
                + agent
                + ": "
                + alarm.line()
                + "; see "
                + report));
    ObjectNode line =
        MAPPER
            .createObjectNode()
            .put("at", Timestamps.format(at))
            .put("agent", agent)
            .put("report", report.toString());
    line.setAll(alarm.toJson());
    try {
      Files.writeString(
          out.resolve(ALARMS_JSONL),
          MAPPER.writeValueAsString(line) + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      err.println(
          Notice.line(
              at,
              "watch",
              Notice.Level.WARN,
              "cannot append to " + out.resolve(ALARMS_JSONL) + ": " + e.getMessage()));
    }
  }
}
