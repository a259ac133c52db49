package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TimestampInconsistentTest {
  private final TimestampInconsistent detector = new TimestampInconsistent();

  @Test
  void naiveAndZonedEventTimesMixedInOneWindow() {
    List<String> lines =
        List.of(
            at(0, 0, "tool.a", "ok", "{}"),
            "{\"ts\":\"2026-11-22 12:01:00\",\"kind\":\"reminder.receipt\",\"status\":\"ok\",\"payload\":{}}",
            at(2, 0, "tool.a", "ok", "{}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(1, d.count());
    assertEquals(
        "{\"naive\":1,\"zoned\":2,\"naive_at\":[{\"ref\":2,\"fields\":[\"ts\"]}],"
            + "\"naive_at_total\":1}",
        d.evidence().toString());
    assertEquals(TimestampInconsistent.KIND, d.derived().get(0).event().kind());
    assertEquals("delay", d.derived().get(0).event().status());
  }

  @Test
  void aNaiveTimeInAToolArgumentCountsNextToZonedTimes() {
    List<String> lines =
        List.of(
            at(0, 0, "tool.set_reminder", "ok", "{\"args\":{\"when\":\"2026-11-22T15:00\"}}"),
            at(
                1,
                0,
                "tool.set_reminder",
                "ok",
                "{\"args\":{\"when\":\"2026-11-22T16:00:00+01:00\"}}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(1, d.count());
    assertEquals(
        "{\"naive\":1,\"zoned\":3,\"naive_at\":[{\"ref\":1,\"fields\":[\"payload.args.when\"]}],"
            + "\"naive_at_total\":1}",
        d.evidence().toString());
  }

  @Test
  void zonedTimesEverywhereAreConsistent() {
    List<String> lines =
        List.of(
            at(0, 0, "tool.set_reminder", "ok", "{\"args\":{\"when\":\"2026-11-22T15:00:00Z\"}}"),
            at(
                1,
                0,
                "tool.set_reminder",
                "ok",
                "{\"at\":\"2026-11-22T15:00:00+01:00[Europe/Paris]\",\"n\":\"12:00\"}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(0, d.count());
    assertEquals(4, d.evidence().get("zoned").asInt());
  }

  @Test
  void onlyNaiveTimesAreNotAMix() {
    List<String> lines =
        List.of(
            "{\"ts\":\"2026-11-22 12:00:00\",\"kind\":\"a\",\"status\":\"ok\",\"payload\":{}}",
            "{\"ts\":\"2026-11-22T12:01:00\",\"kind\":\"a\",\"status\":\"ok\",\"payload\":{}}");
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void aNaiveArgumentTheCallResolvedToAnInstantIsHandled() {
    String resolved =
        "{\"args\":{\"when\":\"2026-11-25T00:29\"},"
            + "\"result\":\"{\\\"dueAt\\\":\\\"2026-11-24T23:29:00Z\\\"}\"}";
    List<String> lines =
        List.of(at(0, 0, "tool.set_reminder", "ok", resolved), at(1, 0, "tool.x", "ok", "{}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(0, d.count(), d.evidence().toString());
    assertEquals(1, d.evidence().get("resolved").asInt());
  }

  @Test
  void aResultThatRepeatsTheNaiveDigitsAsUtcIsStillNaive() {
    String asUtc =
        "{\"args\":{\"when\":\"2026-11-25T00:29\"},\"result\":{\"dueAt\":\"2026-11-25T00:29:00Z\"}}";
    Detection d = detector.detect(Logs.window(List.of(at(0, 0, "tool.set_reminder", "ok", asUtc))));
    assertEquals(1, d.count(), d.evidence().toString());
    String failed =
        "{\"args\":{\"when\":\"2026-11-25T00:29\"},\"result\":{\"dueAt\":\"2026-11-24T23:29:00Z\"}}";
    assertEquals(
        1,
        detector
            .detect(Logs.window(List.of(at(0, 0, "tool.set_reminder", "fail", failed))))
            .count());
  }

  @Test
  void atScaleOneDerivedEventAndTheNewestNaiveEventsAreKept() {
    List<Derived> sink = new ArrayList<>();
    Scan scan = detector.scan(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    for (int i = 0; i < 200_000; i++) {
      WindowEvent w =
          Logs.event(
              i + 1,
              t0.plusSeconds(i),
              "tool.a",
              "ok",
              null,
              JsonNodeFactory.instance.objectNode());
      scan.accept(i % 10 == 9 ? new WindowEvent(w.event(), w.identity(), w.ref(), true) : w);
    }
    Detection d = scan.finish();
    assertEquals(1, d.count());
    assertEquals(1, sink.size());
    assertEquals(20_000, d.evidence().get("naive").asLong());
    assertEquals(180_000, d.evidence().get("zoned").asLong());
    assertEquals(Findings.MAX_CITED, d.evidence().get("naive_at").size());
    assertEquals(20_000, d.evidence().get("naive_at_total").asLong());
    assertEquals(200_000, d.evidence().at("/naive_at/49/ref").asLong());
    assertEquals(10, sink.get(0).event().payload().get("first_naive").asLong());
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
  }
}
