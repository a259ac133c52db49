package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.appraise.ToolRoles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code write_after_refusal} (SPEC section 4.4b): a write call succeeds right after calls of the same tool in the
 * session failed: at least {@code failures} (2) of them with other arguments, or a {@code failure_plateau}'s run
 * ({@code run}, 3) whatever the arguments. The agent forced its way through a guard. A write that failed once and then
 * succeeded is a retry, not this.
 *
 * <p>Derived event: {@code <call kind>.after_refusal}, status {@code fail}, about the successful call, payload
 * {@code tool}, {@code refusals} (the failures before it) and {@code changed_args}.
 */
final class WriteAfterRefusal extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "write_after_refusal";

  private final int failures;
  private final int plateau;

  WriteAfterRefusal(DetectorSettings settings) {
    super(NAME, settings);
    this.failures = settings.dialogue().refusalRun();
    this.plateau = settings.plateauRun();
  }

  @Override
  void session(Conversation.Session s, DialogueFindings found) {
    Map<String, List<WindowEvent>> refusals = new LinkedHashMap<>();
    for (Conversation.Turn t : s.turns()) {
      for (WindowEvent call : t.calls()) {
        if (roles.of(call.event()) != ToolRoles.Role.WRITE) {
          continue;
        }
        List<WindowEvent> before = refusals.computeIfAbsent(ToolRoles.toolName(call.event()), k -> new ArrayList<>());
        if (!EventFields.SUCCESS.contains(EventFields.status(call.event()))) {
          before.add(call);
          continue;
        }
        judge(t, call, before, found);
        before.clear();
      }
    }
  }

  @Override
  String summary(int count) {
    return count + " write(s) succeeded right after the same tool refused them";
  }

  private void judge(Conversation.Turn t, WindowEvent success, List<WindowEvent> before, DialogueFindings found) {
    String args = success.event().payload().path("args").toString();
    long changed = before.stream().filter(f -> !f.event().payload().path("args").toString().equals(args)).count();
    if (changed < failures && before.size() < plateau) {
      return;
    }
    ObjectNode details = JsonNodeFactory.instance.objectNode().put("tool", ToolRoles.toolName(success.event()))
        .put("refusals", before.size()).put("changed_args", changed);
    List<WindowEvent> cited = new ArrayList<>(before);
    cited.add(success);
    found.add(t, success, cited, success.event().kind() + ".after_refusal", "fail", details);
  }
}
