package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command list of {@code --help}: one whole sentence per command, on one line. */
class HelpSummaryTest {
  @Test
  void everyCommandsSummaryIsOneWholeSentenceOnOneLine() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        "--help");
    String help = out.toString(StandardCharsets.UTF_8);
    List<String> lines = help.lines().dropWhile(l -> !l.equals("Commands:")).skip(1).toList();
    assertEquals(
        Main.COMMANDS.size(), lines.size(), "one line per command, none wrapped:\n" + help);
    for (String line : lines) {
      String[] parts = line.strip().split("\\s+", 2);
      assertTrue(Main.COMMANDS.containsKey(parts[0]), line);
      assertTrue(
          parts[1].endsWith(".") && Character.isUpperCase(parts[1].charAt(0)),
          "a whole sentence: " + line);
    }
  }
}
