package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailurePlateauTest {
  private final FailurePlateau detector = new FailurePlateau(DetectorSettings.DEFAULTS);

  private static List<String> failures(String kind, int startMinute, String... messages) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < messages.length; i++) {
      lines.add(at(startMinute + i, 0, kind, "fail", "{\"error\":{\"type\":\"java.io.IOException\",\"message\":\""
          + messages[i] + "\"}}"));
    }
    return lines;
  }

  @Test
  void theSameFailureInDifferentWordsIsAPlateau() {
    List<String> lines = failures("tool.apply_fix", 0,
        "sudo: a password is required to edit the sudoers file",
        "Editing sudoers failed because sudo now requires a password",
        "The password requirement of sudo blocks every change to sudoers",
        "sudoers cannot be changed: sudo asks for a password");
    Detection d = detector.detect(Logs.window(lines));
    assertEquals(1, d.count());
    assertEquals("{\"plateaus\":[{\"kind\":\"tool.apply_fix\",\"repeats\":4,"
        + "\"shared_words\":[\"password\",\"sudo\",\"sudoer\"],\"refs\":[1,2,3,4]}],"
        + "\"plateaus_total\":1}", d.evidence().toString());
    assertEquals("tool.apply_fix.failure_plateau", d.derived().get(0).event().kind());
    assertEquals(4, d.derived().get(0).event().payload().get("repeats").asInt());
  }

  @Test
  void distinctFailuresAreNotAPlateau() {
    List<String> lines = failures("tool.apply_fix", 0,
        "sudo: a password is required",
        "disk quota exceeded on /var",
        "network unreachable while downloading packages",
        "selinux denied the write to /etc/pam.d");
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void twoRepeatsAreNotYetAPlateauAndOtherKindsDoNotJoinTheRun() {
    List<String> lines = new ArrayList<>(failures("tool.a", 0,
        "scheduler unavailable reminder not saved", "reminder not saved: the scheduler is unavailable"));
    lines.addAll(failures("tool.b", 5, "scheduler unavailable reminder not saved"));
    assertEquals(0, detector.detect(Logs.window(lines)).count());
  }

  @Test
  void aBreakEndsOnePlateauAndTheNextRunStartsAfresh() {
    List<String> lines = failures("tool.a", 0,
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
    assertEquals(Set.of("reminder", "scheduler", "sav", "unavailabl"),
        ContentWords.of("The Reminders were not SAVED: scheduler is unavailable (42)"));
    assertEquals(Set.of("retry", "box", "match"), ContentWords.of("retries boxes matches"));
  }
}
