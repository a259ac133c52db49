package dev.vigil.demo.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CorpusPlanTest {
  private final CorpusPlan plan = CorpusPlan.of(CorpusGenerator.SEED);

  @Test
  void theSameSeedPlansTheSameCorpusAndAnotherSeedAnother() {
    CorpusPlan again = CorpusPlan.of(CorpusGenerator.SEED);
    assertEquals(plan.planted(), again.planted());
    assertEquals(plan.shop().toString(), again.shop().toString());
    assertEquals(plan.robin().toString(), again.robin().toString());
    assertNotEquals(
        plan.shop().toString(), CorpusPlan.of(CorpusGenerator.SEED + 1).shop().toString());
  }

  @Test
  void atLeastTwoHundredSessionsOfTwoAgentsBothLabelsAndEveryTargetAndUntargetedFailures() {
    assertEquals(270, plan.planted().size());
    assertEquals(
        plan.planted().size(), plan.planted().stream().map(Planted::session).distinct().count());
    assertEquals(
        Set.of("shop", "robin"),
        plan.planted().stream().map(Planted::agent).collect(Collectors.toSet()));
    assertEquals(126, plan.planted().stream().filter(Planted::failed).count());
    Set<String> targets =
        plan.planted().stream()
            .filter(Planted::failed)
            .map(Planted::target)
            .collect(Collectors.toSet());
    assertTrue(
        targets.containsAll(
            Set.of(
                "unconfirmed_write",
                "claim_without_action",
                "user_correction",
                "write_after_refusal",
                "policy.no_refund_after_shipping",
                "failure_plateau",
                "tool_call_explosion",
                "premature_success",
                Planted.NONE)),
        targets.toString());
    assertTrue(
        plan.planted().stream()
            .filter(s -> !s.failed())
            .allMatch(s -> s.target().equals(Planted.NONE)));
    assertEquals(
        38,
        plan.planted().stream().filter(s -> s.failed() && s.target().equals(Planted.NONE)).count());
  }

  @Test
  void sessionsAreNumberedPerAgentInTheOrderTheyArePlayed() {
    for (int i = 0; i < plan.shop().size(); i++) {
      assertEquals(String.format("shop-%03d", i + 1), plan.shop().get(i).get("session").asText());
    }
    for (int i = 0; i < plan.robin().size(); i++) {
      assertEquals(String.format("robin-%03d", i + 1), plan.robin().get(i).get("session").asText());
    }
  }

  /**
   * Robin's tools number each reminder they set (rem-1, rem-2... across sessions; a when that is
   * not an ISO date-time is refused before a number is taken): the ids the scripts cancel are those
   * their own session set, and the reminders the backend loses are those of the lost_reminder
   * sessions.
   */
  @Test
  void robinsReminderIdsFollowItsToolsNumbering() {
    Map<String, String> kindOf =
        plan.planted().stream().collect(Collectors.toMap(Planted::session, Planted::kind));
    Map<String, String> sessionOf = new HashMap<>();
    int next = 0;
    for (ObjectNode script : plan.robin()) {
      String session = script.get("session").asText();
      Set<String> own = new HashSet<>();
      for (JsonNode call : calls(script)) {
        if (call.get("tool").asText().equals("setReminder")
            && iso(call.get("args").get("when").asText())) {
          String id = "rem-" + ++next;
          own.add(id);
          sessionOf.put(id, session);
        } else if (call.get("tool").asText().equals("cancelReminder")) {
          assertTrue(own.contains(call.get("args").get("reminder").asText()), session);
        }
      }
    }
    assertEquals(8, plan.lostReminders().size());
    for (String id : plan.lostReminders()) {
      assertEquals("lost_reminder", kindOf.get(sessionOf.get(id)), id);
    }
  }

  private static List<JsonNode> calls(ObjectNode script) {
    return script.findValues("calls").stream()
        .flatMap(
            a -> {
              List<JsonNode> l = new java.util.ArrayList<>();
              a.forEach(l::add);
              return l.stream();
            })
        .toList();
  }

  private static boolean iso(String when) {
    try {
      LocalDateTime.parse(when);
      return true;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}
