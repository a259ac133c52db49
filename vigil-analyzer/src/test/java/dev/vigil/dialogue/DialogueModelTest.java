package dev.vigil.dialogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.AgentName;
import dev.vigil.observe.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one model of the dialogue: the session key, positional turns, tool names and claims, each
 * defined once.
 */
class DialogueModelTest {
  private record E(Event event, long ref) implements DialogueEvent {}

  private static Event event(
      String kind, ObjectNode payload, String agent, String session, String turn) {
    return new Event(
        Instant.parse("2026-11-22T12:00:00Z"),
        kind,
        "ok",
        payload,
        agent,
        1L,
        1L,
        "main",
        turn,
        null,
        session);
  }

  private static ObjectNode text(String t) {
    return JsonNodeFactory.instance.objectNode().put("text", t);
  }

  @Test
  void aSessionIsItsIdElseItsAgentsDisplayName() {
    ObjectNode p = JsonNodeFactory.instance.objectNode();
    assertEquals("s-1", SessionKey.of(event("tool.x", p, "shop", "s-1", null)));
    assertEquals("shop", SessionKey.of(event("tool.x", p, "shop", null, null)));
    assertEquals(
        "shop", SessionKey.of(event("tool.x", p, "shop", "  ", null)), "a blank session is none");
    assertEquals(AgentName.display(null), SessionKey.of(event("tool.x", p, null, null, null)));
  }

  @Test
  void theToolNameIsThePayloadsElseTheKindsLastSegment() {
    ObjectNode named = JsonNodeFactory.instance.objectNode().put("tool", "refund_order");
    ObjectNode blank = JsonNodeFactory.instance.objectNode().put("tool", " ");
    assertEquals("refund_order", ToolRoles.toolName(event("tool.x", named, "a", null, null)));
    assertEquals("get_order", ToolRoles.toolName(event("tool.get_order", blank, "a", null, null)));
    assertEquals(
        "cancel",
        ToolRoles.toolName(
            event("tool.shop.cancel", JsonNodeFactory.instance.objectNode(), "a", null, null)));
  }

  @Test
  void eventsWithAndWithoutTurnIdsFormTurnsInOneSession() {
    List<String> seen = new ArrayList<>();
    Conversation<E> c = new Conversation<>();
    c.subscribe(
        session ->
            turn ->
                seen.add(
                    turn.session()
                        + "/"
                        + turn.id()
                        + ":"
                        + turn.userText()
                        + "|"
                        + turn.calls()
                        + "|"
                        + turn.answerText()));
    ObjectNode call = JsonNodeFactory.instance.objectNode().put("tool", "get_order");
    c.accept(new E(event("turn.user", text("where is 7"), "shop", null, null), 1));
    c.accept(new E(event("tool.get_order", call, "shop", null, null), 2));
    c.accept(new E(event("turn.answer", text("on its way"), "shop", null, null), 3));
    c.accept(new E(event("turn.user", text("thanks"), "shop", "", "t9"), 4));
    c.accept(new E(event("turn.answer", text("bye"), "shop", "", "t9"), 5));
    c.accept(new E(event("vigil.note", text("not dialogue"), "shop", null, null), 6));
    c.finish();
    assertEquals(List.of("shop/#1:where is 7|1|on its way", "shop/t9:thanks|0|bye"), seen);
  }

  @Test
  void claimsAreWholeWordsOutsideQuestionsFromTheGivenLexicon() {
    assertEquals("cancelled", Claims.DEFAULTS.in("Done. Your order is cancelled!"));
    assertNull(Claims.DEFAULTS.in("Shall I set a reminder? Tell me the time"));
    assertNull(Claims.DEFAULTS.in("Settings are unchanged."), "a claim is a whole word");
    assertEquals("charged", Claims.DEFAULTS.in("Your card was charged."));
  }
}
