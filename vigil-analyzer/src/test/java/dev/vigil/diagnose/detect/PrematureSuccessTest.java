package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PrematureSuccessTest {
  private final PrematureSuccess detector = new PrematureSuccess(DetectorSettings.DEFAULTS);

  /**
   * The paper's Robin: tool call, "Reminder set" toast a second later, receipt {@code lag} seconds
   * after that.
   */
  private static List<String> robin(int reminders, int lag) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < reminders; i++) {
      String id = "\"reminder_id\":\"r-" + i + "\"";
      lines.add(at(i * 4, 0, "tool.set_reminder", "ok", "{" + id + ",\"duration_ms\":3.2}"));
      lines.add(at(i * 4, 1, "reminder.toast", "ok", "{\"message\":\"Reminder set\"," + id + "}"));
      lines.add(
          at(i * 4 + lag / 60, 1 + lag % 60, "reminder.receipt", "delivered", "{" + id + "}"));
    }
    return lines;
  }

  @Test
  void everyToastShownBeforeItsReceiptIsPrematureWithItsLag() {
    Detection d = detector.detect(Logs.window(robin(3, 97)));
    assertEquals(3, d.count());
    assertEquals(97.0, d.evidence().get("mean_receipt_lag_sec").asDouble(), 1e-9);
    assertEquals(3, d.evidence().get("confirmed_late").asInt());
    assertEquals(0, d.evidence().get("unconfirmed").asInt());
    assertEquals(
        "[\"reminder.toast\"]",
        d.evidence().get("success_kinds").toString(),
        "the receipt belongs to the nearest earlier success with its id: the toast, not the tool call");
    assertEquals(
        "{\"success\":2,\"confirmation\":3,\"id\":\"r-0\",\"receipt_lag_sec\":97.0}",
        d.evidence().get("instances").get(0).toString());
    assertEquals("reminder.toast.premature", d.derived().get(0).event().kind());
    assertEquals("fail", d.derived().get(0).event().status());
    assertEquals(
        97.0, d.derived().get(0).event().payload().get("receipt_lag_sec").asDouble(), 1e-9);
    assertEquals(
        "3 successes of reminder.toast reported before confirmation; the confirmation came 97.0 s later "
            + "on average",
        d.summary());
  }

  @Test
  void aSuccessOfAConfirmedKindWithoutAnyConfirmationIsPrematureToo() {
    List<String> lines = new ArrayList<>(robin(2, 30));
    lines.add(
        at(
            30,
            0,
            "reminder.toast",
            "ok",
            "{\"message\":\"Reminder set\",\"reminder_id\":\"r-9\"}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(3, d.count());
    assertEquals(1, d.evidence().get("unconfirmed").asInt());
    assertEquals(
        "{\"success\":7,\"confirmation\":null,\"id\":\"r-9\"}",
        d.evidence().get("instances").get(2).toString());
    assertFalse(d.derived().get(2).event().payload().has("receipt_lag_sec"));
  }

  @Test
  void aSuccessWithoutAnIdOfAKindThatNeedsConfirmationIsPremature() {
    List<String> lines = new ArrayList<>();
    lines.add(at(0, 0, "reminder.toast", "ok", "{\"message\":\"Reminder set\"}"));
    lines.addAll(robin(1, 30));
    lines.add(at(9, 0, "reminder.toast", "ok", "{\"message\":\"Reminder set\"}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(3, d.count(), d.evidence().toString());
    assertEquals(
        2,
        d.evidence().get("unconfirmed").asInt(),
        "the one before the kind was seen to need it too");
    assertEquals(
        "{\"success\":5,\"confirmation\":null}", d.evidence().at("/instances/2").toString());
  }

  @Test
  void aCallThatReturnsAfterItsReceiptIsGatedAndNotPremature() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String id = "\"reminderId\":\"r-" + i + "\"";
      // the call starts at :00, its receipt arrives at :02, it answers at :02.5
      lines.add(
          at(i, 0, "tool.set_reminder", "ok", "{\"result\":{" + id + "},\"duration_ms\":2500}"));
      lines.add(at(i, 2, "reminder.receipt", "ok", "{\"args\":{" + id + "}}"));
    }
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(0, d.count());
    assertTrue(d.derived().isEmpty());
    assertEquals("", d.summary());
  }

  /**
   * A tool call on main that calls the backend inside it; the receipt comes 2 s after the tool
   * started.
   */
  private static List<String> nested(int toolMs) {
    return List.of(
        "{\"ts\":\"2026-11-22T12:00:00Z\",\"kind\":\"tool.set_reminder\",\"status\":\"ok\",\"thread\":\"main\","
            + "\"payload\":{\"result\":\"{\\\"reminderId\\\":\\\"rem-1\\\"}\",\"duration_ms\":"
            + toolMs
            + "}}",
        "{\"ts\":\"2026-11-22T12:00:00.100Z\",\"kind\":\"backend.schedule\",\"status\":\"ok\",\"thread\":\"main\","
            + "\"payload\":{\"args\":{\"reminderId\":\"rem-1\"},\"duration_ms\":50}}",
        "{\"ts\":\"2026-11-22T12:00:02Z\",\"kind\":\"reminder.receipt\",\"status\":\"ok\",\"thread\":\"http\","
            + "\"payload\":{\"args\":{\"reminderId\":\"rem-1\"}}}");
  }

  @Test
  void theOutermostCallOnTheThreadOwnsTheConfirmationNotTheBackendCallInsideIt() {
    Detection early = detector.detect(Logs.window(nested(200)));
    assertEquals(1, early.count(), early.evidence().toString());
    assertEquals("[\"tool.set_reminder\"]", early.evidence().get("success_kinds").toString());
    assertEquals(1.8, early.evidence().get("mean_receipt_lag_sec").asDouble(), 1e-9);

    Detection gated = detector.detect(Logs.window(nested(2500)));
    assertEquals(0, gated.count(), "the tool answered after the receipt: " + gated.evidence());
  }

  @Test
  void idsAreFoundInArgsResultsWrittenAsJsonStringsAndThePayload() {
    List<String> lines =
        List.of(
            at(
                0,
                0,
                "tool.book",
                "ok",
                "{\"result\":\"{\\\"bookingId\\\":\\\"b-7\\\"}\",\"duration_ms\":5}"),
            at(0, 9, "booking.confirmed", "ok", "{\"args\":{\"booking_id\":\"b-7\"}}"),
            at(1, 0, "tool.book", "ok", "{\"id\":\"b-8\",\"duration_ms\":5}"),
            at(1, 4, "booking.confirmed", "ok", "{\"args\":{\"id\":\"b-8\"}}"));
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(2, d.count());
    assertEquals((8.995 + 3.995) / 2, d.evidence().get("mean_receipt_lag_sec").asDouble(), 1e-9);
  }

  @Test
  void successesWithoutAnyConfirmationInTheWindowAreNotJudged() {
    List<String> lines =
        List.of(
            at(0, 0, "tool.search", "ok", "{\"id\":\"q-1\"}"),
            at(1, 0, "tool.search", "ok", "{\"id\":\"q-2\"}"));
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void confirmationsAreKindsWhoseLastSegmentHasAConfirmationWord() {
    assertTrue(detector.isConfirmation("reminder.receipt"));
    assertTrue(detector.isConfirmation("order.confirmed"));
    assertTrue(detector.isConfirmation("tool.send_ack"));
    assertTrue(detector.isConfirmation("mail.wasDelivered"));
    assertFalse(
        detector.isConfirmation("tool.track_parcel"),
        "track contains ack but no word starts with it");
    assertFalse(detector.isConfirmation("receipt.print"), "only the last segment counts");
  }

  private static ObjectNode ids(String field, String id) {
    return JsonNodeFactory.instance.objectNode().put(field, id);
  }

  @Test
  void robinAtScaleIsJudgedAsItGoesAndOnlyTheLastHourWaits() {
    // a reminder a second, its receipt 97 s later, over 100,000 seconds: 200,000 events
    List<Derived> sink = new ArrayList<>();
    PrematureSuccess.Reading scan = detector.start(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    long ref = 0;
    int maxHeld = 0;
    for (int t = 0; t < 100_000; t++) {
      scan.accept(
          Logs.event(
              ++ref,
              t0.plusSeconds(t),
              "tool.set_reminder",
              "ok",
              null,
              ids("reminder_id", "r-" + t)));
      if (t >= 97) {
        scan.accept(
            Logs.event(
                ++ref,
                t0.plusSeconds(t),
                "reminder.receipt",
                "delivered",
                null,
                ids("reminder_id", "r-" + (t - 97))));
      }
      maxHeld = Math.max(maxHeld, scan.held());
    }
    assertEquals(199_903, ref);
    assertTrue(maxHeld <= 3_601, "an hour of successes waits, not the window: " + maxHeld);
    Detection d = scan.finish();
    assertEquals(100_000, d.count());
    assertEquals(100_000, sink.size());
    assertEquals(99_903, d.evidence().get("confirmed_late").asInt());
    assertEquals(
        97, d.evidence().get("unconfirmed").asInt(), "the last 97 had no receipt in the window");
    assertEquals(97.0, d.evidence().get("mean_receipt_lag_sec").asDouble(), 1e-9);
    assertEquals(Findings.MAX_CITED, d.evidence().get("instances").size());
    assertEquals(100_000, d.evidence().get("instances_total").asLong());
    assertFalse(d.evidence().has("dropped_waiting") || d.evidence().has("dropped_aside"));
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
    assertEquals(0, scan.held(), "finish lets go of every success");
  }

  @Test
  void atMostTwentyThousandSuccessesWaitAndThoseDroppedEarlyAreCounted() {
    PrematureSuccess.Reading scan = detector.start(d -> {});
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    for (int i = 0; i < 200_000; i++) { // 200,000 bookings in 200 s, none confirmed
      scan.accept(
          Logs.event(
              i + 1, t0.plusMillis(i), "tool.book", "ok", null, ids("booking_id", "b-" + i)));
      assertTrue(scan.held() <= PrematureSuccess.MAX_WAITING);
    }
    assertEquals(PrematureSuccess.MAX_WAITING, scan.held());
    Detection d = scan.finish();
    assertEquals(0, d.count(), "tool.book never got a confirmation: it does not depend on one");
    assertEquals(
        200_000 - PrematureSuccess.MAX_WAITING, d.evidence().get("dropped_waiting").asLong());
  }

  @Test
  void successesWhoseWaitEndedAreJudgedOnceTheirKindTurnsOutToNeedConfirmation() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 60; i++) { // 60 toasts never confirmed, a minute apart
      lines.add(at(i, 0, "reminder.toast", "ok", "{\"reminder_id\":\"r-" + i + "\"}"));
    }
    // two hours later one toast gets its receipt: the kind depends on confirmation
    lines.add(
        "{\"ts\":\"2026-11-22T15:00:00Z\",\"kind\":\"reminder.toast\",\"status\":\"ok\","
            + "\"payload\":{\"reminder_id\":\"r-x\"}}");
    lines.add(
        "{\"ts\":\"2026-11-22T15:00:05Z\",\"kind\":\"reminder.receipt\",\"status\":\"ok\","
            + "\"payload\":{\"reminder_id\":\"r-x\"}}");
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(51, d.count(), "the newest 50 put aside and the late one");
    assertEquals(50, d.evidence().get("unconfirmed").asInt());
    assertEquals(1, d.evidence().get("confirmed_late").asInt());
    assertEquals(
        10,
        d.evidence().get("dropped_aside").asInt(),
        "the 10 oldest fell off the 50 kept per kind");
  }

  @Test
  void aConfirmationLaterThanTheHorizonFindsNoSuccess() {
    List<String> lines =
        List.of(
            at(0, 0, "tool.book", "ok", "{\"booking_id\":\"b-1\"}"),
            "{\"ts\":\"2026-11-22T13:00:01Z\",\"kind\":\"booking.confirmed\",\"status\":\"ok\","
                + "\"payload\":{\"booking_id\":\"b-1\"}}");
    assertEquals(
        0,
        detector.detect(Logs.window(lines)).count(),
        "after an hour the booking stopped waiting; its kind was never seen to need a confirmation");
  }
}
