package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conversation detectors (docs/DETECTORS.md#conversation-detectors), case by case: positive,
 * negative and edge.
 */
class ConversationDetectorsTest {
  private static final DetectorSettings S = DetectorSettings.DEFAULTS;

  // the detectors are values: the parameterized cases pass them as arguments
  @SuppressWarnings("UnnecessaryLambda")
  private static final Function<List<WindowEvent>, Detection> UNCONFIRMED =
      w -> new UnconfirmedWrite(S).detect(w);

  @SuppressWarnings("UnnecessaryLambda")
  private static final Function<List<WindowEvent>, Detection> CLAIM =
      w -> new ClaimWithoutAction(S).detect(w);

  @SuppressWarnings("UnnecessaryLambda")
  private static final Function<List<WindowEvent>, Detection> CORRECTION =
      w -> new UserCorrection(S).detect(w);

  @SuppressWarnings("UnnecessaryLambda")
  private static final Function<List<WindowEvent>, Detection> REFUSAL =
      w -> new WriteAfterRefusal(S).detect(w);

  private static Dialogue s() {
    return Dialogue.session("s1");
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        // unconfirmed_write
        Arguments.of(
            "write in the first turn, no confirmation",
            UNCONFIRMED,
            1,
            s().user("cancel order 7").ok("cancel_order").answer("Order 7 is cancelled.").lines()),
        Arguments.of(
            "asked, the user changed the subject, the agent wrote anyway",
            UNCONFIRMED,
            1,
            s().user("I want to cancel order 7")
                .ok("get_order")
                .answer("Shall I cancel order 7?")
                .user("what will the refund be")
                .ok("cancel_order")
                .answer("Done.")
                .lines()),
        Arguments.of(
            "asked, confirmed in the next turn",
            UNCONFIRMED,
            0,
            s().user("I want to cancel order 7")
                .ok("get_order")
                .answer("Shall I cancel order 7?")
                .user("yes, go ahead")
                .ok("cancel_order")
                .answer("Order 7 is cancelled.")
                .lines()),
        Arguments.of(
            "only look-ups",
            UNCONFIRMED,
            0,
            s().user("where is order 7").ok("get_order").answer("It ships tomorrow.").lines()),
        Arguments.of(
            "the write failed: nothing changed",
            UNCONFIRMED,
            0,
            s().user("cancel order 7").fail("cancel_order").answer("I could not do that.").lines()),
        Arguments.of(
            "the previous answer neither asked nor proposed",
            UNCONFIRMED,
            0,
            s().user("status of order 7")
                .ok("get_order")
                .answer("Order 7 is pending.")
                .user("cancel it")
                .ok("cancel_order")
                .answer("Order 7 is cancelled.")
                .lines()),
        Arguments.of(
            "no dialogue captured: nothing to judge",
            UNCONFIRMED,
            0,
            s().user("cancel order 7").ok("cancel_order").answer("Done.").callsOnly()),
        // claim_without_action
        Arguments.of(
            "claims a cancellation no call made",
            CLAIM,
            1,
            s().user("cancel order 7")
                .ok("get_order")
                .answer("Your order has been cancelled.")
                .lines()),
        Arguments.of(
            "claims what a successful call did",
            CLAIM,
            0,
            s().user("cancel order 7")
                .ok("cancel_order")
                .answer("I have cancelled order 7.")
                .lines()),
        Arguments.of(
            "a claim in the negative",
            CLAIM,
            0,
            s().user("cancel order 7")
                .ok("get_order")
                .answer(
                    "Order 7 could not be cancelled. It was not " + "cancelled because it shipped.")
                .lines()),
        Arguments.of(
            "a promise is no claim",
            CLAIM,
            0,
            s().user("cancel order 7")
                .ok("get_order")
                .answer("It will be cancelled once you confirm.")
                .lines()),
        Arguments.of(
            "a question is no claim",
            CLAIM,
            0,
            s().user("cancel order 7")
                .ok("get_order")
                .answer("Should order 7 be cancelled? Cancelled orders are " + "refunded?")
                .lines()),
        Arguments.of(
            "claims a cancellation whose call failed",
            CLAIM,
            1,
            s().user("cancel order 7").fail("cancel_order").answer("Order 7 cancelled.").lines()),
        Arguments.of(
            "a write that failed then succeeded backs the claim",
            CLAIM,
            0,
            s().user("cancel order 7")
                .fail("cancel_order")
                .ok("cancel_order")
                .answer("Order 7 cancelled.")
                .lines()),
        Arguments.of(
            "reports a state it looked up",
            CLAIM,
            0,
            s().user("status of order 7")
                .call("get_order", "ok", "{\"id\":7}", "{\"status\":\"cancelled\"}")
                .answer("Order 7 is cancelled.")
                .lines()),
        Arguments.of(
            "a condition earlier in the clause is no claim",
            CLAIM,
            0,
            s().user("refund order 7")
                .ok("get_order")
                .answer(
                    "It has shipped, so I can't refund it. Once the parcel "
                        + "is returned, the refund follows.")
                .lines()),
        Arguments.of(
            "a reminder set with no call",
            CLAIM,
            1,
            s().user("remind me at 9").answer("Reminder set for 09:00.").lines()),
        Arguments.of(
            "a reminder set by its call",
            CLAIM,
            0,
            s().user("remind me at 9").ok("setReminder").answer("Reminder set for 09:00.").lines()),
        Arguments.of(
            "an offer is no claim",
            CLAIM,
            0,
            s().user("remind me at 9")
                .answer("Let me know and I'll set it; want it set for 09:00 or 10:00?")
                .lines()),
        Arguments.of(
            "an update backed by a modify call",
            CLAIM,
            0,
            s().user("change my address")
                .ok("modify_address")
                .answer("I've updated your address.")
                .lines()),
        Arguments.of(
            "an update no call made",
            CLAIM,
            1,
            s().user("change my address")
                .ok("get_user")
                .answer("I've updated your address.")
                .lines()),
        // user_correction
        Arguments.of(
            "the user says it is wrong",
            CORRECTION,
            1,
            s().user("book the 9am train")
                .ok("book_train")
                .answer("Booked the 9pm train.")
                .user("That's wrong, I said 9am")
                .lines()),
        Arguments.of(
            "the user repeats a request",
            CORRECTION,
            1,
            s().user("cancel order W123 now")
                .ok("get_order")
                .answer("Order W123 is pending.")
                .user("please cancel order W123")
                .lines()),
        Arguments.of(
            "two different requests that share words",
            CORRECTION,
            0,
            s().user("cancel order W123")
                .ok("cancel_order")
                .answer("Done.")
                .user("cancel order W456")
                .lines()),
        Arguments.of("a first message", CORRECTION, 0, s().user("book the 9am train").lines()),
        Arguments.of(
            "the user owns a slip of their own",
            CORRECTION,
            0,
            s().user("where is order A-1")
                .ok("get_order")
                .answer("A-1 is not yours.")
                .user("My mistake: A-2. I gave " + "the wrong number")
                .lines()),
        // write_after_refusal
        Arguments.of(
            "two refusals with other arguments, then success",
            REFUSAL,
            1,
            s().user("refund order 7")
                .call("refund_order", "fail", "{\"id\":7}", null)
                .call("refund_order", "fail", "{\"id\":7,\"force\":true}", null)
                .call("refund_order", "ok", "{\"id\":7,\"override\":true}", null)
                .answer("Refunded.")
                .lines()),
        Arguments.of(
            "a write that failed once then succeeded: a retry",
            REFUSAL,
            0,
            s().user("refund order 7")
                .call("refund_order", "fail", "{\"id\":7}", null)
                .call("refund_order", "ok", "{\"id\":8}", null)
                .answer("Refunded.")
                .lines()),
        Arguments.of(
            "a plateau of refusals with the same arguments, then success",
            REFUSAL,
            1,
            s().user("refund order 7")
                .fail("refund_order")
                .fail("refund_order")
                .fail("refund_order")
                .ok("refund_order")
                .answer("Refunded.")
                .lines()),
        Arguments.of(
            "two refusals with the same arguments, then success",
            REFUSAL,
            0,
            s().user("refund order 7")
                .fail("refund_order")
                .fail("refund_order")
                .ok("refund_order")
                .answer("Refunded.")
                .lines()),
        Arguments.of(
            "look-ups that failed, then succeeded",
            REFUSAL,
            0,
            s().user("find order 7")
                .call("get_order", "fail", "{\"id\":1}", null)
                .call("get_order", "fail", "{\"id\":2}", null)
                .call("get_order", "ok", "{\"id\":7}", null)
                .lines()));
  }

  @ParameterizedTest(name = "{0}: {2}")
  @MethodSource("cases")
  void findsWhatTheDialogueShows(
      String name,
      Function<List<WindowEvent>, Detection> detector,
      int expected,
      List<String> lines) {
    Detection d = detector.apply(Logs.window(lines));
    assertEquals(expected, d.count(), name + ": " + d.evidence());
    assertEquals(expected, d.derived().size());
    assertEquals(expected == 0, d.summary().isEmpty());
  }

  @Test
  void evidenceNamesTheSessionTheTurnTheEventsAndTheWords() {
    Detection d =
        CLAIM.apply(
            Logs.window(
                s().user("cancel order 7")
                    .fail("cancel_order")
                    .answer("Order 7 cancelled.")
                    .lines()));
    assertEquals(
        "{\"instances\":[{\"session\":\"s1\",\"turn\":\"s1-t1\",\"refs\":[2,3],\"claims\":[\"cancelled\"],"
            + "\"failed_calls\":[\"cancel_order\"]}],\"instances_total\":1}",
        d.evidence().toString());
    var derived = d.derived().get(0).event();
    assertEquals("turn.claim_without_action", derived.kind());
    assertEquals("fail", derived.status());
    assertEquals("s1", derived.session());
  }

  @Test
  void derivedStatusesAreAppraisedAsTheSpecSays() {
    assertEquals(
        "complaint",
        CORRECTION
            .apply(
                Logs.window(
                    s().user("book it").answer("ok").user("that is not what I asked").lines()))
            .derived()
            .get(0)
            .event()
            .status());
    assertEquals(
        "tool.cancel_order.unconfirmed",
        UNCONFIRMED
            .apply(Logs.window(s().user("cancel order 7").ok("cancel_order").lines()))
            .derived()
            .get(0)
            .event()
            .kind());
  }

  @Test
  void sessionsAreKeptApart() {
    List<String> lines =
        new java.util.ArrayList<>(
            Dialogue.session("a")
                .user("cancel order W123")
                .ok("get_order")
                .answer("It is pending.")
                .lines());
    lines.addAll(Dialogue.session("b").user("cancel order W123").lines());
    assertEquals(0, CORRECTION.apply(Logs.window(lines)).count());
  }
}
