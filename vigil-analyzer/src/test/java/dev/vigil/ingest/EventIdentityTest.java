package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Content identities stay what they were when banks were first written: the values below were
 * computed by the first implementation (the payload serialized to a byte array, then hashed), so
 * existing banks keep recognizing the events they hold.
 */
class EventIdentityTest {
  /**
   * One per line of {@code identity/events.jsonl}: unicode, escapes, numbers of every kind,
   * nesting, naive ts.
   */
  private static final long[] PINNED = {
    0x9aa0155a6edb832aL, 0x82b5455081a31848L, 0x8804aa58e1c75a41L, 0x3aa49a765bc2cb8cL,
    0x91e2281b158d53ffL, 0xfca0fd8fdb5028aaL, 0xee97b72e71abc9daL, 0xbe705feef4fe35a5L
  };

  private static final long QUEUE = 0xef2d4935dfdee1aaL;
  private static final long DERIVED = 0xce5174a531cb9753L;

  private static List<Event> events() throws IOException {
    try (InputStream in = EventIdentityTest.class.getResourceAsStream("/identity/events.jsonl")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8)
          .lines()
          .map(
              line -> {
                try {
                  return EventJson.read(line, ZoneOffset.UTC).event();
                } catch (Exception e) {
                  throw new IllegalStateException(line, e);
                }
              })
          .toList();
    }
  }

  @Test
  void contentIdentitiesAreThePinnedValues() throws IOException {
    List<Event> events = events();
    assertEquals(PINNED.length, events.size());
    for (int i = 0; i < PINNED.length; i++) {
      assertEquals(PINNED[i], EventIdentity.ofContent(events.get(i)), "line " + (i + 1));
      assertEquals(
          PINNED[i], EventIdentity.ofContent(events.get(i)), "line " + (i + 1) + ", again");
    }
  }

  @Test
  void aDifferentPayloadByteIsADifferentIdentity() throws IOException {
    Event e = events().get(7);
    Event other = e.withTs(e.ts());
    other.payload().put("b", 3);
    assertNotEquals(PINNED[7], EventIdentity.ofContent(other));
  }

  @Test
  void queueAndDerivedIdentitiesArePinned() {
    assertEquals(QUEUE, EventIdentity.ofQueueIndex("/var/vigil/queue", 42));
    assertEquals(DERIVED, EventIdentity.ofDerived("premature_success", 0x9aa0155a6edb832aL));
  }
}
