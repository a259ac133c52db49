package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

/**
 * Fuzzes the JSONL event line (docs/CONTRIBUTING.md#fuzzing): every reading of a line either gives
 * an event or throws {@link EventFormatException}, never anything else; the checking reading
 * ({@link EventJson#readHeader}) has the same outcome as the full one, so a pending event always
 * builds; and an event read writes back to a line that reads as the same event. Without {@code
 * JAZZER_FUZZ} this replays the inputs under {@code EventJsonFuzzTestInputs/readLine/}.
 */
class EventJsonFuzzTest {
  private static final ZoneId ZONE = ZoneId.of("Europe/Paris");

  @FuzzTest
  void readLine(byte[] line) {
    EventJson.Parsed full = read(line);
    EventJson.Header header;
    try {
      header = EventJson.readHeader(line, 0, line.length, ZONE);
    } catch (EventFormatException e) {
      if (full != null) {
        throw new AssertionError("the header reading refused a line the full reading took", e);
      }
      assertEquals(defect(line), e.defect(), e.getMessage());
      return;
    }
    assertNotNull(full, "the header reading took a line the full reading refused");
    assertEquals(full.event().ts(), header.ts());
    assertEquals(full.event().agent(), header.agent());
    assertEquals(full.naiveTs(), header.naiveTs());
    PendingEvent pending;
    try {
      pending = EventJson.readPending(line, 0, line.length, ZONE);
    } catch (EventFormatException e) {
      throw new AssertionError("readPending refused a line readHeader took", e);
    }
    String written = EventJson.write(full.event());
    assertEquals(written, EventJson.write(pending.event()));
    // read back as text: a string escaped as a lone surrogate ("\ud83d") is written as that char,
    // which no UTF-8 encoder keeps (it becomes '?'); the bytes would differ, the text does not
    EventJson.Parsed again;
    try {
      again = EventJson.read(written, ZONE);
    } catch (EventFormatException e) {
      throw new AssertionError("a written event does not read back: " + written, e);
    }
    assertEquals(written, EventJson.write(again.event()));
    // the same line as a Java string (the Kafka consumer's and the tests' reading)
    try {
      EventJson.read(new String(line, StandardCharsets.UTF_8), ZONE);
    } catch (EventFormatException e) {
      // a line that is not UTF-8 becomes other text as a string: any outcome of the contract
    }
  }

  /** The full reading, or null when it refused the line with the documented exception. */
  private static EventJson.Parsed read(byte[] line) {
    try {
      return EventJson.read(line, 0, line.length, ZONE);
    } catch (EventFormatException e) {
      assertNotNull(e.defect());
      assertNotNull(e.getMessage());
      return null;
    }
  }

  private static EventDefect defect(byte[] line) {
    try {
      EventJson.read(line, 0, line.length, ZONE);
      throw new AssertionError("read twice, the line gave two outcomes");
    } catch (EventFormatException e) {
      return e.defect();
    }
  }
}
