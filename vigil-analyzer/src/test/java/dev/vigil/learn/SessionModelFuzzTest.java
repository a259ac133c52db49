package dev.vigil.learn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/**
 * Fuzzes the model file of {@code fit} (docs/CONTRIBUTING.md#fuzzing): {@link SessionModel#load}
 * and {@link SessionModel#check} either accept the file or throw {@link IllegalArgumentException}
 * naming it, never anything else; and a model they accept scores a session to a probability in [0,
 * 1]. Without {@code JAZZER_FUZZ} this replays the inputs under {@code
 * SessionModelFuzzTestInputs/loadModel/}.
 */
class SessionModelFuzzTest {
  private static final Path FILE = tempFile();
  private static final Set<String> FINDINGS =
      Set.of("latency", "premature_success", "policy.no_override");

  @FuzzTest
  void loadModel(byte[] file) throws IOException {
    Files.write(FILE, file);
    SessionModel model;
    try {
      model = SessionModel.load(FILE);
      model.check(FILE, FeatureFamilies.ALL, FINDINGS);
    } catch (IllegalArgumentException e) {
      assertNotNull(e.getMessage());
      assertTrue(
          e.getMessage().startsWith("model file " + FILE),
          () -> "the message does not name the file: " + e.getMessage());
      return;
    }
    Observations o = new Observations("s1");
    for (String feature : model.space().names()) {
      o.add(feature, "#1", 1);
      o.add(feature, "#2", 2);
    }
    o.add("u:refund", "#1", 1);
    o.add("n:calls", null, -1);
    double p = model.score(o).probability();
    assertTrue(p >= 0 && p <= 1, () -> "a probability of " + p);
    assertNotNull(model.toJson());
  }

  private static Path tempFile() {
    try {
      Path f = Files.createTempFile("vigil-model-fuzz", ".json");
      f.toFile().deleteOnExit();
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
