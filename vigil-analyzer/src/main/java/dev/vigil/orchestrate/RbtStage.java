package dev.vigil.orchestrate;

import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.RbtDiagnosis;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Decay;
import java.util.List;

/**
 * The default {@link DiagnoseStage}: Roses/Buds/Thorns over the window's live rows, with the rules'
 * thresholds.
 */
final class RbtStage implements DiagnoseStage {
  @Override
  public Diagnosis diagnose(PassContext pass, BankUpdate update, List<Detection> detections) {
    PassOptions o = pass.options();
    return new RbtDiagnosis(o.rules().rbt(), new Decay(o.halfLife()))
        .diagnose(update.windowRows(), o.now(), detections);
  }
}
