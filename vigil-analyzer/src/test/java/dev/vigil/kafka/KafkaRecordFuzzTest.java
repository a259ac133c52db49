package dev.vigil.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.time.ZoneOffset;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Fuzzes the values of the Kafka records the consumer group reads (docs/CONTRIBUTING.md#fuzzing),
 * decoded as the group decodes them: a record of the events' topic (a {@link StringDeserializer}
 * value read as an event line) is an event or an {@link EventFormatException}, skipped and counted;
 * an entry of the bank journal ({@link BankRecord#fromJson}) is an entry or an {@link
 * IllegalArgumentException}; never anything else, and an entry read writes back to itself. Without
 * {@code JAZZER_FUZZ} these replay the inputs under {@code KafkaRecordFuzzTestInputs/<method>/}.
 */
class KafkaRecordFuzzTest {
  private static final StringDeserializer STRINGS = new StringDeserializer();

  @FuzzTest
  void eventRecord(byte[] value) {
    String text = STRINGS.deserialize(GroupTopics.REPORTS, value);
    try {
      assertNotNull(EventJson.read(text == null ? "" : text, ZoneOffset.UTC).event());
    } catch (EventFormatException e) {
      assertNotNull(e.defect(), e.getMessage());
    }
  }

  @FuzzTest
  void journalEntry(byte[] value) {
    String text = STRINGS.deserialize(GroupTopics.REPORTS, value);
    BankRecord entry;
    try {
      entry = BankRecord.fromJson(text);
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
      return;
    }
    assertEquals(entry, BankRecord.fromJson(entry.toJson()));
  }
}
