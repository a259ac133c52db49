package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.diagnose.Alarm;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AlarmNoticeTest {
  private static final Instant AT = Instant.parse("2026-11-24T10:00:00Z");
  private static final Alarm WATCH =
      new Alarm(
          0.35,
          "watch",
          List.of(
              new Alarm.Reason(
                  "unconfirmed_write", 1, 0.35, "1 write call(s) made without confirmation")));
  private static final Alarm ALARM =
      new Alarm(
          0.84,
          "alarm",
          List.of(new Alarm.Reason("claim_without_action", 2, 0.84, "2 answer(s) claim")));

  @TempDir Path out;

  @Test
  void aPassWhoseAlarmReachesTheLevelIsALineOnStderrAndInAlarmsJsonl() throws Exception {
    StringWriter err = new StringWriter();
    AlarmNotice notice = new AlarmNotice("alarm");
    notice.after(WATCH, "robin", AT, out, new PrintWriter(err, true));
    assertFalse(Files.exists(out.resolve(AlarmNotice.ALARMS_JSONL)));
    notice.after(ALARM, "robin", AT, out, new PrintWriter(err, true));
    assertEquals(
        "2026-11-24T10:00:00Z vigil watch WARN: ALARM agent robin: alarm 0.84 (claim_without_action x2); see "
            + out.resolve("report.md")
            + System.lineSeparator(),
        err.toString());
    List<String> lines = Files.readAllLines(out.resolve(AlarmNotice.ALARMS_JSONL));
    assertEquals(1, lines.size());
    JsonNode n = new ObjectMapper().readTree(lines.get(0));
    assertEquals("robin", n.get("agent").asText());
    assertEquals(0.84, n.get("score").asDouble());
    assertEquals("claim_without_action", n.at("/reasons/0/source").asText());
  }

  @Test
  void watchIsReachedByWatchAndAlarmNullByNothing() {
    assertTrue(new AlarmNotice("watch").reaches(WATCH));
    assertTrue(new AlarmNotice("watch").reaches(ALARM));
    assertFalse(new AlarmNotice("alarm").reaches(WATCH));
    assertFalse(new AlarmNotice(null).reaches(ALARM));
    assertThrows(IllegalArgumentException.class, () -> new AlarmNotice("loud"));
  }
}
