package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailurePlateauTest {
  private final FailurePlateau detector = new FailurePlateau(DetectorSettings.DEFAULTS);

  private static List<String> failures(String kind, int startMinute, String... messages) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < messages.length; i++) {
      lines.add(
          at(
              startMinute + i,
              0,
              kind,
              "fail",
              "{\"error\":{\"type\":\"java.io.IOException\",\"message\":\""
                  + messages[i]
                  + "\"}}"));
    }
    return lines;
  }

  @Test
  void theSameFailureInDifferentWordsIsAPlateau() {
    List<String> lines =
        failures(
            "tool.apply_fix",
            0,
            "sudo: a password is required to edit the sudoers file",
            "Editing sudoers failed because sudo now requires a password",
            "The password requirement of sudo blocks every change to sudoers",
            "sudoers cannot be changed: sudo asks for a password");
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(1, d.count());
    assertEquals(
        "{\"plateaus\":[{\"kind\":\"tool.apply_fix\",\"repeats\":4,"
            + "\"shared_words\":[\"password\",\"sudo\",\"sudoer\"],\"refs\":[1,2,3,4]}],"
            + "\"plateaus_total\":1}",
        d.evidence().toString());
    assertEquals("tool.apply_fix.failure_plateau", d.derived().get(0).event().kind());
    assertEquals(4, d.derived().get(0).event().payload().get("repeats").asInt());
  }

  @Test
  void distinctFailuresAreNotAPlateau() {
    List<String> lines =
        failures(
            "tool.apply_fix",
            0,
            "sudo: a password is required",
            "disk quota exceeded on /var",
            "network unreachable while downloading packages",
            "selinux denied the write to /etc/pam.d");
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void twoRepeatsAreNotYetAPlateauAndOtherKindsDoNotJoinTheRun() {
    List<String> lines =
        new ArrayList<>(
            failures(
                "tool.a",
                0,
                "scheduler unavailable reminder not saved",
                "reminder not saved: the scheduler is unavailable"));
    lines.addAll(failures("tool.b", 5, "scheduler unavailable reminder not saved"));
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void aBreakEndsOnePlateauAndTheNextRunStartsAfresh() {
    List<String> lines =
        failures(
            "tool.a",
            0,
            "scheduler unavailable, reminder not saved",
            "could not save the reminder: scheduler unavailable",
            "reminders cannot be saved while the scheduler is unavailable",
            "quota of the calendar account exceeded for today",
            "calendar account quota exceeded today",
            "today the calendar account exceeded its quota");
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(2, d.count());
    assertEquals("[1,2,3]", d.evidence().at("/plateaus/0/refs").toString());
    assertEquals("[4,5,6]", d.evidence().at("/plateaus/1/refs").toString());
  }

  @Test
  void contentWordsFoldCasePluralsAndStopWords() {
    assertEquals(
        Set.of("reminder", "scheduler", "sav", "unavailabl"),
        ContentWords.of("The Reminders were not SAVED: scheduler is unavailable (42)"));
    assertEquals(Set.of("retry", "box", "match"), ContentWords.of("retries boxes matches"));
  }

  private static ObjectNode error(String message) {
    ObjectNode p = JsonNodeFactory.instance.objectNode();
    p.putObject("error").put("type", "java.io.IOException").put("message", message);
    return p;
  }

  private static final String[] SUDO = {
    "sudo: a password is required to edit the sudoers file",
    "Editing sudoers failed because sudo now requires a password",
    "The password requirement of sudo blocks every change to sudoers",
    "sudoers cannot be changed: sudo asks for a password"
  };

  @Test
  void plateausAtScaleAreCountedWithTheNewestKeptAndBoundedState() {
    // 200,000 failures: blocks of four rephrasings of one failure and one unrelated failure
    List<Derived> sink = new ArrayList<>();
    FailurePlateau.Reading scan = detector.start(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    int maxHeld = 0;
    for (int i = 0; i < 200_000; i++) {
      String message = i % 5 < 4 ? SUDO[i % 5] : "disk quota exceeded on volume " + i;
      scan.accept(
          Logs.event(i + 1, t0.plusSeconds(i), "tool.apply_fix", "fail", null, error(message)));
      maxHeld = Math.max(maxHeld, scan.held());
    }
    assertTrue(maxHeld <= FailurePlateau.TAIL + 2, "held: " + maxHeld);
    Detection d = scan.finish();
    assertEquals(40_000, d.count());
    assertEquals(40_000, sink.size());
    assertEquals(Findings.MAX_CITED, d.evidence().get("plateaus").size());
    assertEquals(40_000, d.evidence().get("plateaus_total").asLong());
    assertEquals("[199996,199997,199998,199999]", d.evidence().at("/plateaus/49/refs").toString());
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
  }

  @Test
  void aPlateauOfTwoHundredThousandFailuresKeepsItsNewestRefsAndItsLength() {
    List<Derived> sink = new ArrayList<>();
    FailurePlateau.Reading scan = detector.start(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    for (int i = 0; i < 200_000; i++) {
      scan.accept(
          Logs.event(i + 1, t0.plusSeconds(i), "tool.apply_fix", "fail", null, error(SUDO[i % 4])));
      assertTrue(scan.held() <= FailurePlateau.TAIL + 2);
    }
    Detection d = scan.finish();
    assertEquals(1, d.count());
    assertEquals(200_000, d.evidence().at("/plateaus/0/repeats").asInt());
    assertEquals(Findings.MAX_CITED, d.evidence().at("/plateaus/0/refs").size());
    assertEquals(200_000, d.evidence().at("/plateaus/0/refs/49").asLong());
    assertEquals(200_000, sink.get(0).event().payload().get("repeats").asInt());
    assertEquals(1, sink.get(0).sourceIdentity(), "keyed on the plateau's first failure");
    assertEquals(
        Instant.parse("2026-11-22T00:00:02Z"), sink.get(0).event().ts(), "at the third failure");
  }
}
