package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The clauses {@code claim_without_action} reads an answer in: the pieces the regular expressions
 * of its definition split the answer into, sentences that are questions left out.
 */
class ClaimClausesTest {
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?\\n])");
  private static final Pattern CLAUSE_END = Pattern.compile("[,;:]");
  private static final String ALPHABET = "ab c.!?\n,;: \t\u2028";

  /** The definition: sentences split after their ends, questions dropped, clauses split. */
  private static List<String> byDefinition(String text) {
    List<String> out = new ArrayList<>();
    for (String sentence : SENTENCE_END.split(text, -1)) {
      if (!sentence.strip().endsWith("?")) {
        out.addAll(List.of(CLAUSE_END.split(sentence, -1)));
      }
    }
    return out;
  }

  private static List<String> clauses(String text) {
    List<String> out = new ArrayList<>();
    ClaimWithoutAction.clauses(text).forEach(c -> out.add(text.substring(c[0], c[1])));
    return out;
  }

  @Test
  void splitsAsItsRegularExpressionsDo() {
    assertEquals(
        List.of("I cancelled it.", " Done", " booked!", ""),
        clauses("I cancelled it. Shall I? Done, booked!"));
    SplittableRandom random = new SplittableRandom(41);
    for (int n = 0; n < 50_000; n++) {
      StringBuilder s = new StringBuilder();
      for (int i = random.nextInt(16); i > 0; i--) {
        s.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
      String text = s.toString();
      assertEquals(byDefinition(text), clauses(text), () -> "text [" + text + "]");
    }
  }
}
