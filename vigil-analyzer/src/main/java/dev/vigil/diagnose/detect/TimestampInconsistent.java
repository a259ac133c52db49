package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code timestamp_inconsistent} (SPEC section 4.4; mixed time zones): naive and zoned timestamps mixed in one
 * window. Two places are read: each event's own {@code ts} as written in the input, and every string in its payload
 * that is an ISO-8601 date-time (so a tool argument {@code "2026-11-22T15:00"} counts as naive next to the agent's
 * zoned times).
 *
 * <p>Derived event: one per window, kind {@code timestamp.inconsistent}, status {@code delay}, at the first naive
 * timestamp's event, payload {@code naive} and {@code zoned} counts.
 */
public final class TimestampInconsistent implements Detector {
  /** The detector's name. */
  public static final String NAME = "timestamp_inconsistent";
  /** The derived event's kind. */
  public static final String KIND = "timestamp.inconsistent";

  /** A date-time; group 1 is the zone (offset, {@code Z} or a bracketed region) when there is one. */
  static final Pattern DATE_TIME = Pattern.compile(
      "\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d{1,9})?)?"
          + "(Z|[+-]\\d{2}(?::?\\d{2})?(?:\\[[^\\]]+\\])?|\\[[^\\]]+\\])?");
  private static final int MAX_DEPTH = 8;
  private static final int MAX_CITED = 20;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Detection detect(List<WindowEvent> window) {
    int naive = 0;
    int zoned = 0;
    WindowEvent firstNaive = null;
    ArrayNode cited = JsonNodeFactory.instance.arrayNode();
    for (WindowEvent w : window) {
      List<String> naiveFields = new ArrayList<>();
      int[] counts = new int[2];
      if (w.naiveTs()) {
        naiveFields.add("ts");
        counts[0]++;
      } else {
        counts[1]++;
      }
      scan(w.event().payload(), "payload", naiveFields, counts, 0);
      naive += counts[0];
      zoned += counts[1];
      if (!naiveFields.isEmpty()) {
        if (firstNaive == null) {
          firstNaive = w;
        }
        if (cited.size() < MAX_CITED) {
          ArrayNode fields = cited.addObject().put("ref", w.ref()).putArray("fields");
          naiveFields.forEach(fields::add);
        }
      }
    }
    ObjectNode evidence = JsonNodeFactory.instance.objectNode().put("naive", naive).put("zoned", zoned);
    evidence.set("naive_at", cited);
    if (naive == 0 || zoned == 0) {
      return new Detection(NAME, 0, evidence, "", List.of());
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode().put("naive", naive).put("zoned", zoned)
        .put("first_naive", firstNaive.ref());
    Derived d = new Derived(EventFields.derive(firstNaive.event(), KIND, "delay", firstNaive.event().ts(),
        payload), firstNaive.identity());
    String summary = naive + " naive and " + zoned + " zoned timestamps mixed in the window (first naive one: "
        + firstNaive.event().kind() + ")";
    return new Detection(NAME, 1, evidence, summary, List.of(d));
  }

  private static void scan(JsonNode node, String path, List<String> naiveFields, int[] counts, int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    if (node.isObject()) {
      for (var f : node.properties()) {
        scan(f.getValue(), path + "." + f.getKey(), naiveFields, counts, depth + 1);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        scan(node.get(i), path + "[" + i + "]", naiveFields, counts, depth + 1);
      }
    } else if (node.isTextual()) {
      Matcher m = DATE_TIME.matcher(node.asText().strip());
      if (m.matches()) {
        if (m.group(1) == null) {
          naiveFields.add(path);
          counts[0]++;
        } else {
          counts[1]++;
        }
      }
    }
  }
}
