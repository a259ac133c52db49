package dev.vigil.emobank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The decayed affective state over the window's live rows (docs/DESIGN.md#the-emobank). With
 * decayed intensities D over n rows: per-emotion totals ΣD; {@code dominant_emotions} the top 3
 * (ties keep first-seen order); {@code mood} the first; {@code energy = min(1, Σ0.6·D / n)}; {@code
 * stress = min(1, ΣD over frustration, anxiety / n)}; {@code motivation = min(1, ΣD over pride,
 * curiosity, determination / n)}; {@code focus = min(1, ΣD over curiosity, calm / n)}. No rows:
 * mood {@code calm}, no dominant emotions, energy 0.2, stress 0.1, motivation 0.5, focus 0.5.
 *
 * @param rows n
 * @param totals ΣD per emotion, in first-seen order
 * @param dominantEmotions the top 3 emotions by ΣD
 * @param mood the first dominant emotion
 */
public record Snapshot(
    int rows,
    Map<String, Double> totals,
    List<String> dominantEmotions,
    String mood,
    double energy,
    double stress,
    double motivation,
    double focus) {

  /** Weight of every row in energy. */
  static final double ENERGY_WEIGHT = 0.6;

  static final Set<String> STRESS = Set.of("frustration", "anxiety");
  static final Set<String> MOTIVATION = Set.of("pride", "curiosity", "determination");
  static final Set<String> FOCUS = Set.of("curiosity", "calm");

  /** The snapshot of an empty window. */
  public static Snapshot empty() {
    return new Snapshot(0, Map.of(), List.of(), "calm", 0.2, 0.1, 0.5, 0.5);
  }

  /**
   * The snapshot of the given live rows (already limited to the window), decayed to {@code now}.
   */
  public static Snapshot of(List<EmotionRow> rows, Decay decay, Instant now) {
    if (rows.isEmpty()) {
      return empty();
    }
    Map<String, Double> totals = new LinkedHashMap<>();
    double all = 0;
    double stress = 0;
    double motivation = 0;
    double focus = 0;
    for (EmotionRow row : rows) {
      double d = decay.apply(row.intensity(), row.ts(), now);
      totals.merge(row.emotion(), d, Double::sum);
      all += d;
      if (STRESS.contains(row.emotion())) {
        stress += d;
      }
      if (MOTIVATION.contains(row.emotion())) {
        motivation += d;
      }
      if (FOCUS.contains(row.emotion())) {
        focus += d;
      }
    }
    int n = rows.size();
    List<String> dominant = top3(totals);
    return new Snapshot(
        n,
        totals,
        dominant,
        dominant.get(0),
        Math.min(1, ENERGY_WEIGHT * all / n),
        Math.min(1, stress / n),
        Math.min(1, motivation / n),
        Math.min(1, focus / n));
  }

  /**
   * This snapshot as JSON: the {@code snapshot} of {@code report.json} and the EmoBank's {@code
   * state.json}.
   */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("rows", rows);
    n.put("mood", mood);
    ArrayNode dominant = n.putArray("dominant_emotions");
    dominantEmotions.forEach(dominant::add);
    n.put("energy", energy);
    n.put("stress", stress);
    n.put("motivation", motivation);
    n.put("focus", focus);
    ObjectNode t = n.putObject("totals");
    totals.forEach(t::put);
    return n;
  }

  /**
   * Reads a snapshot written by {@link #toJson()} (the bank's {@code state.json}); a missing field
   * takes the value of the empty snapshot.
   */
  public static Snapshot fromJson(JsonNode n) {
    Snapshot e = empty();
    Map<String, Double> totals = new LinkedHashMap<>();
    n.path("totals").properties().forEach(f -> totals.put(f.getKey(), f.getValue().asDouble()));
    List<String> dominant = new ArrayList<>();
    n.path("dominant_emotions").forEach(d -> dominant.add(d.asText()));
    return new Snapshot(
        n.path("rows").asInt(0),
        totals,
        List.copyOf(dominant),
        n.path("mood").asText(e.mood()),
        n.path("energy").asDouble(e.energy()),
        n.path("stress").asDouble(e.stress()),
        n.path("motivation").asDouble(e.motivation()),
        n.path("focus").asDouble(e.focus()));
  }

  /** The three largest totals; a stable sort keeps first-seen order among ties. */
  private static List<String> top3(Map<String, Double> totals) {
    List<Map.Entry<String, Double>> entries = new ArrayList<>(totals.entrySet());
    entries.sort((a, b) -> Double.compare(b.getValue(), a.getValue()));
    List<String> out = new ArrayList<>();
    for (int i = 0; i < Math.min(3, entries.size()); i++) {
      out.add(entries.get(i).getKey());
    }
    return List.copyOf(out);
  }
}
