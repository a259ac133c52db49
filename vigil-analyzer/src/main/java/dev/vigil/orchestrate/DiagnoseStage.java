package dev.vigil.orchestrate;

import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import java.io.IOException;
import java.util.List;

/** The work of {@code diagnose_rbt} (SPEC section 4.5): Roses, Buds and Thorns over the window's rows. */
@FunctionalInterface
public interface DiagnoseStage {
  /** Diagnoses the bank's window rows with what the detectors found. */
  Diagnosis diagnose(PassContext pass, BankUpdate update, List<Detection> detections) throws IOException;
}
