package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code timestamp_inconsistent} (docs/DETECTORS.md; mixed time zones): naive and zoned timestamps
 * mixed in one window. Two places are read: each event's own {@code ts} as written in the input,
 * and every string in its payload that is an ISO-8601 date-time (so a tool argument {@code
 * "2026-11-22T15:00"} counts as naive next to the agent's zoned times).
 *
 * <p>A naive argument that the same successful call resolved is handled, not mixed: when the call's
 * {@code result} holds a zoned date-time whose local date and time differ from every naive
 * argument's, the tool read the naive time in a zone and answered with the instant ({@code
 * "when":"2026-11-25T00:29"} giving {@code "dueAt":"2026-11-24T23:29:00Z"}); those arguments are
 * counted as {@code resolved}. A result that repeats the naive digits with {@code Z} ({@code
 * "2026-11-25T00:29:00Z"}) took the local time for UTC: still naive.
 *
 * <p>Derived event: one per window, kind {@code timestamp.inconsistent}, status {@code delay}, at
 * the first naive timestamp's event, payload {@code naive} and {@code zoned} counts; it goes out
 * when the window ends. Streaming, it keeps the counts and the first naive event. Evidence: the
 * counts, the newest {@value Findings#MAX_CITED} events with naive times ({@code naive_at}, each
 * with its naive fields) and {@code naive_at_total}.
 */
public final class TimestampInconsistent implements Detector {
  /** The detector's name. */
  public static final String NAME = "timestamp_inconsistent";

  /** The derived event's kind. */
  public static final String KIND = "timestamp.inconsistent";

  /**
   * A date-time; group 1 is the zone (offset, {@code Z} or a bracketed region) when there is one.
   */
  static final Pattern DATE_TIME =
      Pattern.compile(
          "\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(?::\\d{2}(?:[.,]\\d{1,9})?)?"
              + "(Z|[+-]\\d{2}(?::?\\d{2})?(?:\\[[^\\]]+\\])?|\\[[^\\]]+\\])?");

  private static final int MAX_DEPTH = 8;

  /** The shortest text that can be a date-time: {@code 2026-11-22T15:00}. */
  private static final int MIN_DATE_TIME = 16;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Scan scan(Consumer<Derived> derived) {
    return new TimestampScan(new Findings(NAME, derived));
  }

  /**
   * One scan of a window: counts the naive and zoned timestamps of each event, and cites the events
   * with naive ones.
   */
  private static final class TimestampScan implements Scan {
    private final Findings found;
    private long naive;
    private long zoned;
    private long resolved;
    private WindowEvent firstNaive;

    TimestampScan(Findings found) {
      this.found = found;
    }

    @Override
    public void accept(WindowEvent w) {
      List<String> naiveFields = new ArrayList<>();
      int[] counts = new int[2];
      if (w.naiveTs()) {
        naiveFields.add("ts");
        counts[0]++;
      } else {
        counts[1]++;
      }
      List<String> naiveValues = new ArrayList<>();
      scan(w.event().payload(), new ArrayList<>(), naiveFields, naiveValues, counts, 0);
      int handled = resolved(w.event(), naiveFields, naiveValues);
      counts[0] -= handled;
      resolved += handled;
      naive += counts[0];
      zoned += counts[1];
      if (!naiveFields.isEmpty()) {
        if (firstNaive == null) {
          firstNaive = w;
        }
        ArrayNode fields = found.entry("naive_at").put("ref", w.ref()).putArray("fields");
        naiveFields.forEach(fields::add);
        found.cite(w);
      }
    }

    @Override
    public Detection finish() {
      ObjectNode evidence =
          JsonNodeFactory.instance.objectNode().put("naive", naive).put("zoned", zoned);
      if (resolved > 0) {
        evidence.put("resolved", resolved);
      }
      evidence.putArray("naive_at");
      if (naive == 0 || zoned == 0) {
        return found.detection(evidence, "");
      }
      ObjectNode payload =
          JsonNodeFactory.instance
              .objectNode()
              .put("naive", naive)
              .put("zoned", zoned)
              .put("first_naive", firstNaive.ref());
      found.derive(
          firstNaive,
          EventFields.derive(firstNaive.event(), KIND, "delay", firstNaive.event().ts(), payload));
      return found.detection(
          evidence,
          naive
              + " naive and "
              + zoned
              + " zoned timestamps mixed in the window (first naive one: "
              + firstNaive.event().kind()
              + ")");
    }
  }

  /**
   * Takes the naive arguments a successful call resolved out of {@code naiveFields}; returns how
   * many.
   */
  private static int resolved(Event e, List<String> naiveFields, List<String> naiveValues) {
    if (!EventFields.SUCCESS.contains(EventFields.status(e)) || naiveFields.isEmpty()) {
      return 0;
    }
    List<String> args = new ArrayList<>();
    for (int i = 0; i < naiveFields.size(); i++) {
      if (naiveFields.get(i).startsWith("payload.args")) {
        args.add(local(naiveValues.get(i)));
      }
    }
    if (args.isEmpty()) {
      return 0;
    }
    JsonNode result = e.payload().path("result");
    Matcher m = DATE_TIME.matcher(result.isTextual() ? result.asText() : result.toString());
    boolean answered = false;
    while (m.find()) {
      if (m.group(1) == null
          || args.contains(local(m.group().substring(0, m.start(1) - m.start())))) {
        return 0; // the result repeats a naive time, or is naive itself
      }
      answered = true;
    }
    if (!answered) {
      return 0;
    }
    int n = 0;
    for (int i = naiveFields.size() - 1; i >= 0; i--) {
      if (naiveFields.get(i).startsWith("payload.args")) {
        naiveFields.remove(i);
        naiveValues.remove(i);
        n++;
      }
    }
    return n;
  }

  /**
   * A date-time's local part to the minute: {@code 2026-11-25 00:29:00} gives {@code
   * 2026-11-25T00:29}.
   */
  private static String local(String dateTime) {
    String s = dateTime.strip().replace(' ', 'T');
    return s.length() >= 16 ? s.substring(0, 16) : s;
  }

  /** The path of a payload field: {@code payload.args.when}, {@code payload.items[2].at}. */
  private static String path(List<Object> segments) {
    StringBuilder sb = new StringBuilder("payload");
    for (Object s : segments) {
      if (s instanceof Integer i) {
        sb.append('[').append(i).append(']');
      } else {
        sb.append('.').append(s);
      }
    }
    return sb.toString();
  }

  private static void scan(
      JsonNode node,
      List<Object> path,
      List<String> naiveFields,
      List<String> naiveValues,
      int[] counts,
      int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    if (node.isObject()) {
      for (var f : node.properties()) {
        path.add(f.getKey());
        scan(f.getValue(), path, naiveFields, naiveValues, counts, depth + 1);
        path.remove(path.size() - 1);
      }
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        path.add(i);
        scan(node.get(i), path, naiveFields, naiveValues, counts, depth + 1);
        path.remove(path.size() - 1);
      }
    } else if (node.isTextual() && node.textValue().length() >= MIN_DATE_TIME) {
      String text = node.textValue().strip();
      if (text.length() < MIN_DATE_TIME
          || !Character.isDigit(text.charAt(0))
          || text.charAt(4) != '-') {
        return; // cannot be a date-time: spare the regex
      }
      Matcher m = DATE_TIME.matcher(text);
      if (m.matches()) {
        if (m.group(1) == null) {
          naiveFields.add(path(path));
          naiveValues.add(m.group());
          counts[0]++;
        } else {
          counts[1]++;
        }
      }
    }
  }
}
