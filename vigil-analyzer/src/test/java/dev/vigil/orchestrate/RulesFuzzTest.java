package dev.vigil.orchestrate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Scan;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzzes the rules file with its policy rules (docs/CONTRIBUTING.md#fuzzing): {@link Rules#load}
 * either gives rules or throws {@link IllegalArgumentException} naming the file, never anything
 * else; and every policy rule that compiles is evaluated on a small shop session, where a rule that
 * fails on a call is counted, never thrown (docs/POLICIES.md). Without {@code JAZZER_FUZZ} this
 * replays the inputs under {@code RulesFuzzTestInputs/loadRules/}.
 */
class RulesFuzzTest {
  private static final Path FILE = tempFile();

  private static final List<Event> SESSION =
      events(
          "{\"ts\":\"2026-01-02T10:00:00Z\",\"kind\":\"turn.user\",\"status\":\"ok\","
              + "\"payload\":{\"text\":\"refund order A1 please\"},\"agent\":\"shop\",\"session\":\"s1\"}",
          "{\"ts\":\"2026-01-02T10:00:01Z\",\"kind\":\"tool.get_order\",\"status\":\"ok\","
              + "\"payload\":{\"tool\":\"get_order\",\"args\":{\"orderId\":\"A1\"},"
              + "\"result\":{\"id\":\"A1\",\"status\":\"shipped\",\"total\":150.5,\"items\":[1,\"x\",null]}},"
              + "\"agent\":\"shop\",\"session\":\"s1\"}",
          "{\"ts\":\"2026-01-02T10:00:02Z\",\"kind\":\"tool.refund_order\",\"status\":\"ok\","
              + "\"payload\":{\"tool\":\"refund_order\",\"args\":{\"orderId\":\"A1\",\"amount\":150,"
              + "\"override\":true,\"big\":123456789012345678901234567890},\"result\":\"refunded\"},"
              + "\"agent\":\"shop\",\"session\":\"s1\"}",
          "{\"ts\":\"2026-01-02T10:00:03Z\",\"kind\":\"tool.refund_order\",\"status\":\"fail\","
              + "\"payload\":{\"args\":\"not an object\",\"result\":null}}",
          "{\"ts\":\"2026-01-02T10:00:04Z\",\"kind\":\"tool.cancel_order\",\"status\":\"ok\","
              + "\"payload\":{\"tool\":\"cancel_order\",\"args\":{\"override\":\"yes\",\"n\":-1.5e300},"
              + "\"result\":[]},\"agent\":\"shop\",\"session\":\"s1\"}");

  @FuzzTest
  void loadRules(byte[] file) throws IOException {
    Files.write(FILE, file);
    Rules rules;
    try {
      rules = Rules.load(FILE);
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
      assertTrue(
          e.getMessage().contains(FILE.toString()),
          () -> "the message does not name the file: " + e.getMessage());
      return;
    }
    for (Detector d : rules.policies().detectors()) {
      Scan scan = d.scan(derived -> {});
      long n = 0;
      for (Event e : SESSION) {
        n++;
        scan.accept(new WindowEvent(e, n, n, false));
      }
      assertNotNull(scan.finish());
    }
  }

  private static Path tempFile() {
    try {
      Path f = Files.createTempFile("vigil-rules-fuzz", ".json");
      f.toFile().deleteOnExit();
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<Event> events(String... lines) {
    List<Event> out = new ArrayList<>();
    for (String line : lines) {
      try {
        out.add(EventJson.read(line, ZoneOffset.UTC).event());
      } catch (EventFormatException e) {
        throw new IllegalStateException(line, e);
      }
    }
    return List.copyOf(out);
  }
}
