package dev.vigil.orchestrate;

import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import java.io.IOException;
import java.util.List;

/**
 * The work of {@code diagnose_rbt} (docs/DESIGN.md#roses-buds-and-thorns): Roses, Buds and Thorns
 * over the window's rows.
 */
@FunctionalInterface
public interface DiagnoseStage {
  /** Diagnoses the bank's window rows with what the detectors found. */
  Diagnosis diagnose(PassContext pass, BankUpdate update, List<Detection> detections)
      throws IOException;
}
