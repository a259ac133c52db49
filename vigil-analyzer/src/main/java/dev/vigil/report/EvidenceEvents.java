package dev.vigil.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The events a detector's evidence cites, resolved to the events the detection kept ({@code
 * Detection#cited}, the newest it cited): every number under a field that holds a ref ({@code ref},
 * {@code refs}, {@code success}, {@code confirmation}, {@code first}, {@code last}, {@code
 * first_naive}, {@code call}, or a name ending in {@code _ref} or {@code _refs}) at any depth,
 * matched to the event with that {@link WindowEvent#ref()}. The newest {@value #MAX_EVENTS} are
 * listed, each value cut at {@value #MAX_VALUE_CHARS} characters, so that a pass over a large
 * window still writes a small page.
 */
final class EvidenceEvents {
  /** Cited events listed per detector, the newest. */
  static final int MAX_EVENTS = 50;

  /** Characters of one value (arguments, result, error) shown. */
  static final int MAX_VALUE_CHARS = 600;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss.SSS", java.util.Locale.ROOT)
          .withZone(ZoneOffset.UTC);
  private static final Set<String> REF_FIELDS =
      Set.of("ref", "refs", "success", "confirmation", "first", "last", "first_naive", "call");

  /**
   * One cited event, as the page shows it.
   *
   * @param ref its ref (line or seq)
   * @param ts its time, UTC, to the millisecond
   * @param kind its kind
   * @param status its status
   * @param css {@code ok}, {@code bad} (fail, timeout, error) or {@code other}
   * @param agent its agent, or empty
   * @param session its session, or empty
   * @param turn its turn, or empty
   * @param args the call's arguments, or the payload without result and error
   * @param result the call's result, or empty
   * @param error the call's error, {@code type: message}, or empty
   */
  record Cited(
      long ref,
      String ts,
      String kind,
      String status,
      String css,
      String agent,
      String session,
      String turn,
      String args,
      String result,
      String error) {}

  /**
   * What one detector's evidence cites.
   *
   * @param cited refs cited
   * @param resolved of those, found in the window
   * @param events the newest {@link #MAX_EVENTS} resolved, oldest first
   */
  record Listing(int cited, int resolved, List<Cited> events) {
    /** Whether some resolved events were left out. */
    public boolean cut() {
      return events.size() < resolved;
    }
  }

  private final Map<Long, WindowEvent> byRef = new HashMap<>();

  /** Indexes the events a detection kept of those its evidence cites (the newest of them). */
  EvidenceEvents(List<WindowEvent> cited) {
    cited.forEach(w -> byRef.put(w.ref(), w));
  }

  /** The events an evidence object cites. */
  Listing of(JsonNode evidence) {
    Set<Long> refs = new TreeSet<>();
    collect(evidence, false, refs);
    List<WindowEvent> found = new ArrayList<>();
    for (long ref : refs) {
      WindowEvent w = byRef.get(ref);
      if (w != null) {
        found.add(w);
      }
    }
    Comparator<WindowEvent> byTime =
        Comparator.comparing((WindowEvent w) -> w.event().ts()).thenComparingLong(WindowEvent::ref);
    found.sort(byTime.reversed());
    List<WindowEvent> newest =
        new ArrayList<>(found.subList(0, Math.min(MAX_EVENTS, found.size())));
    newest.sort(byTime);
    return new Listing(
        refs.size(), found.size(), newest.stream().map(EvidenceEvents::cited).toList());
  }

  private static void collect(JsonNode node, boolean refField, Set<Long> refs) {
    if (node.isIntegralNumber() && refField) {
      refs.add(node.asLong());
    } else if (node.isArray()) {
      node.forEach(item -> collect(item, refField, refs));
    } else if (node.isObject()) {
      node.properties().forEach(f -> collect(f.getValue(), isRefField(f.getKey()), refs));
    }
  }

  private static boolean isRefField(String name) {
    return REF_FIELDS.contains(name) || name.endsWith("_ref") || name.endsWith("_refs");
  }

  private static Cited cited(WindowEvent w) {
    Event e = w.event();
    ObjectNode payload = e.payload();
    String args;
    if (payload.has("args")) {
      args = text(payload.get("args"));
    } else {
      ObjectNode rest = payload.deepCopy();
      rest.remove(List.of("result", "error"));
      args = rest.isEmpty() ? "" : text(rest);
    }
    String result = payload.has("result") ? text(payload.get("result")) : "";
    JsonNode error = payload.path("error");
    String err =
        error.isObject()
            ? cut(error.path("type").asText("") + ": " + error.path("message").asText(""))
            : error.isMissingNode() || error.isNull() ? "" : text(error);
    String status = e.status();
    String css =
        status.equals("ok")
            ? "ok"
            : status.equals("fail") || status.equals("timeout") || status.equals("error")
                ? "bad"
                : "other";
    return new Cited(
        w.ref(),
        TIME.format(e.ts()),
        e.kind(),
        status,
        css,
        orEmpty(e.agent()),
        orEmpty(e.session()),
        orEmpty(e.turn()),
        args,
        result,
        err);
  }

  private static String text(JsonNode n) {
    return cut(n.isTextual() ? n.asText() : n.toString());
  }

  static String cut(String s) {
    return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS) + "…";
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
