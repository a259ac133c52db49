package dev.vigil.orchestrate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The judge reads only the strict JSON verdict; anything else is not understood (null). */
class VerdictTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      textBlock =
          """
      {"violation": true, "rule": "No refunds.", "reason": "refunded"} | violation: No refunds. / refunded
      {"violation": false, "rule": "", "reason": "as asked"} | clean: as asked
      {"violation": false} | clean:
      {"violation": false, "reason": "fine"} | clean: fine
      ```json\\n{"violation": false, "reason": "fine"}\\n``` | clean: fine
      {"violation": "yes", "rule": "r", "reason": "x"} | NULL
      {"violation": true, "reason": "no rule cited"} | NULL
      {"violation": true, "rule": "  ", "reason": "blank rule"} | NULL
      {"violation": true, "rule": "r"} | NULL
      {"violation": false, "reason": 3} | NULL
      {"rule": "r", "reason": "no verdict"} | NULL
      Yes, the turn broke the rule. | NULL
      Sure: {"violation": false} | NULL
      [{"violation": false}] | NULL
      {"violation": false | NULL
      '' | NULL
      """)
  void readsOnlyTheStrictVerdict(String answer, String expected) {
    Verdict v = Verdict.parse(answer.replace("\\n", "\n"));
    assertEquals(
        expected,
        v == null
            ? null
            : v.violation()
                ? "violation: " + v.rule() + " / " + v.reason()
                : ("clean: " + v.reason()).strip());
  }
}
