package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LabelsTest {
  @TempDir Path tmp;

  @Test
  void badLinesAreCountedWithTheirNumberAndReasonAndTheRestAreRead() throws Exception {
    Path file = tmp.resolve("labels.jsonl");
    Files.writeString(
        file,
        String.join(
                "\n",
                "{\"session\":\"s1\",\"failed\":true}",
                "not json",
                "",
                "{\"session\":\"s2\",\"failed\":false,\"kind\":\"clean\"}",
                "{\"failed\":true}",
                "{\"session\":7,\"failed\":true}",
                "{\"session\":\"s3\",\"failed\":\"yes\"}",
                "{\"session\":\"s4\"}",
                "[1,2]",
                "{\"session\":\"s1\",\"failed\":false}",
                "{\"session\":\"s5\",\"failed\":false}")
            + "\n");
    Labels labels = Labels.read(file);
    assertEquals(Map.of("s1", true, "s2", false, "s5", false), labels.failed());
    assertEquals(List.of("s1", "s2", "s5"), List.copyOf(labels.failed().keySet()));
    assertEquals(
        List.of(
            "line 2: not JSON",
            "line 5: no \"session\"",
            "line 6: \"session\" is not a string",
            "line 7: \"failed\" is not true or false",
            "line 8: no \"failed\"",
            "line 9: not a JSON object",
            "line 10: session \"s1\" was labelled on line 1 already"),
        labels.badLines().stream().map(Labels.BadLine::toString).toList());
  }

  @Test
  void aGroupIsKeptWhenItIsTextAndALineWithAnotherGroupIsBad() throws Exception {
    Path file = tmp.resolve("grouped.jsonl");
    Files.writeString(
        file,
        String.join(
            "\n",
            "{\"session\":\"a\",\"failed\":true,\"group\":\"task-1\"}",
            "{\"session\":\"b\",\"failed\":false}",
            "{\"session\":\"c\",\"failed\":false,\"group\":7}"));
    Labels labels = Labels.read(file);
    assertEquals(Map.of("a", "task-1"), labels.groups());
    assertEquals(List.of("a", "b"), List.copyOf(labels.failed().keySet()));
    assertEquals(
        List.of("line 3: \"group\" is not a string"),
        labels.badLines().stream().map(Labels.BadLine::toString).toList());
  }

  @Test
  void aMissingFileIsRefusedNamingIt() {
    Path file = tmp.resolve("nope.jsonl");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Labels.read(file));
    assertEquals("labels file " + file + " does not exist", e.getMessage());
  }
}
