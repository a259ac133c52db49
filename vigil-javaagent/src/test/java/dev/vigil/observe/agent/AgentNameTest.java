package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The main class is read from the command line as the regular expression {@code \s+} split it. */
class AgentNameTest {
  @Test
  void theFirstWordIsWhatSplittingAtWhiteSpaceGives() {
    String[] parts = {"a", "B.c", " ", "\t", "\n", "\u000B", "\f", "\r", "\u00A0", "\u2003", "x"};
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder s = new StringBuilder();
      for (int j = random.nextInt(8); j >= 0; j--) {
        s.append(parts[random.nextInt(parts.length)]);
      }
      String command = s.toString().trim();
      String expected = command.isEmpty() ? "" : command.split("\\s+", 2)[0];
      assertEquals(expected, AgentName.firstWord(command), command);
    }
  }

  @Test
  void theSimpleNameOfTheMainClass() {
    assertEquals("Robin", AgentName.simpleName(AgentName.firstWord("dev.vigil.demo.Robin --fast")));
  }
}
