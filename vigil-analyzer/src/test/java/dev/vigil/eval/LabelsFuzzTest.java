package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the labels file of {@code eval} and {@code fit} (docs/CONTRIBUTING.md#fuzzing): whatever a
 * readable file holds, {@link Labels#read} gives its labels and counts its bad lines with their
 * numbers and reasons; no content is fatal (the one documented exception, {@link
 * IllegalArgumentException}, is for a file that is missing or unreadable). Without {@code
 * JAZZER_FUZZ} this replays the inputs under {@code LabelsFuzzTestInputs/readLabels/}.
 */
class LabelsFuzzTest {
  private static final Path FILE = tempFile();

  @FuzzTest
  void readLabels(byte[] file) throws IOException {
    Files.write(FILE, file);
    Labels labels = Labels.read(FILE);
    long lines = Files.readAllLines(FILE, java.nio.charset.StandardCharsets.ISO_8859_1).size();
    for (Labels.BadLine bad : labels.badLines()) {
      assertTrue(bad.line() >= 1 && bad.line() <= lines, bad::toString);
      assertTrue(!bad.reason().isEmpty(), bad::toString);
    }
    assertTrue(labels.failed().size() + labels.badLines().size() <= lines);
    for (String session : labels.groups().keySet()) {
      assertEquals(true, labels.failed().containsKey(session), session);
    }
  }

  private static Path tempFile() {
    try {
      Path f = Files.createTempFile("vigil-labels-fuzz", ".jsonl");
      f.toFile().deleteOnExit();
      return f;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
