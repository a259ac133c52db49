package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.adapt.code.Evidence;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Latency;
import dev.vigil.diagnose.detect.PrematureSuccess;
import dev.vigil.diagnose.detect.TimestampInconsistent;
import java.util.List;

/** The code stage's {@link Evidence}, from the pass's diagnosis and what its detectors measured. */
final class EvidenceOf {
  private EvidenceOf() {}

  static Evidence pass(Diagnosis diagnosis, List<Detection> detections) {
    Evidence.Builder b = Evidence.builder().diagnosis(diagnosis);
    int failures = 0;
    int timeouts = 0;
    for (ThornCause t : diagnosis.topThorns()) {
      if (t.cause().endsWith(":timeout")) {
        timeouts += t.thorns();
      } else if (t.cause().endsWith(":fail") || t.cause().endsWith(":error")) {
        failures += t.thorns();
      }
    }
    b.failures(failures).timeouts(timeouts);
    for (Detection d : detections) {
      if (!d.fired()) {
        continue;
      }
      JsonNode e = d.evidence();
      switch (d.name()) {
        case PrematureSuccess.NAME -> {
          b.prematureSuccesses(d.count());
          if (e.path("mean_receipt_lag_sec").isNumber()) {
            b.meanReceiptLagSec(e.get("mean_receipt_lag_sec").asDouble());
          }
        }
        case TimestampInconsistent.NAME -> b.timestampInconsistencies(e.path("naive").asInt());
        case Latency.NAME -> {
          for (JsonNode tool : e.path("tools")) {
            JsonNode slow = tool.path("slow");
            double delayed = 0;
            for (JsonNode call :
                slow) { // the newest listed: each its own budget under a running median
              double budget = call.path("budget_ms").asDouble(tool.path("budget_ms").asDouble());
              delayed += (call.path("duration_ms").asDouble() - budget) / 1000.0;
            }
            int total = tool.path("slow_total").asInt(slow.size());
            b.slowTool(
                tool.path("kind").asText(),
                tool.path("budget_ms").asDouble() / 1000.0,
                total,
                slow.isEmpty() ? 0 : delayed / slow.size());
          }
        }
        default -> {}
      }
    }
    return b.build();
  }
}
