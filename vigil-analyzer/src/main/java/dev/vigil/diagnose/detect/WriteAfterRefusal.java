package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code write_after_refusal} (docs/DETECTORS.md#conversation-detectors): a write call succeeds
 * right after calls of the same tool in the session failed: at least {@code failures} (2) of them
 * with other arguments, or a {@code failure_plateau}'s run ({@code run}, 3) whatever the arguments.
 * The agent forced its way through a guard. A write that failed once and then succeeded is a retry,
 * not this.
 *
 * <p>Read as a stream, call by call: a session keeps, for at most {@value #MAX_TOOLS} write tools
 * (the most recently failed), the failures since the tool last succeeded: their number, and the
 * newest {@value #MAX_REFUSALS} as compact copies (header and arguments), which {@code
 * changed_args} counts and the evidence cites.
 *
 * <p>Derived event: {@code <call kind>.after_refusal}, status {@code fail}, about the successful
 * call, payload {@code tool}, {@code refusals} (the failures before it) and {@code changed_args}.
 */
final class WriteAfterRefusal extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "write_after_refusal";

  /** How many failures of one tool are kept to compare and cite, the newest. */
  static final int MAX_REFUSALS = 16;

  /**
   * How many tools with failures since their last success a session keeps, the most recently
   * failed.
   */
  static final int MAX_TOOLS = 16;

  private final int failures;
  private final int plateau;

  WriteAfterRefusal(DetectorSettings settings) {
    super(NAME, settings);
    this.failures = settings.dialogue().refusalRun();
    this.plateau = settings.plateauRun();
  }

  @Override
  Conversation.Reader<WindowEvent> reader(DialogueFindings found) {
    return new Session(found);
  }

  @Override
  String summary(int count) {
    return count + " write(s) succeeded right after the same tool refused them";
  }

  /**
   * One session: the write tools that failed since they last succeeded, at most {@value
   * #MAX_TOOLS}, each with its failures (how many, and the newest {@value #MAX_REFUSALS}).
   */
  private final class Session implements Conversation.Reader<WindowEvent> {
    private final DialogueFindings found;
    private final LinkedHashMap<String, Newest<WindowEvent>> refusals =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, Newest<WindowEvent>> eldest) {
            return size() > MAX_TOOLS;
          }
        };

    Session(DialogueFindings found) {
      this.found = found;
    }

    @Override
    public void call(Conversation.Turn<WindowEvent> t, WindowEvent call) {
      if (roles.of(call.event()) != ToolRoles.Role.WRITE) {
        return;
      }
      String tool = ToolRoles.toolName(call.event());
      if (!EventFields.SUCCESS.contains(EventFields.status(call.event()))) {
        // a compact copy: its arguments are compared, the rest of its payload (result, error) is
        // not needed
        refusals
            .computeIfAbsent(tool, k -> new Newest<>(MAX_REFUSALS))
            .add(EventFields.slim(call, "args", "tool", "duration_ms"));
        return;
      }
      Newest<WindowEvent> before = refusals.remove(tool);
      if (before != null) {
        judge(t, call, before, found);
      }
    }

    @Override
    public void complete(Conversation.Turn<WindowEvent> t) {
      // refusals carry over from turn to turn
    }
  }

  private void judge(
      Conversation.Turn<WindowEvent> t,
      WindowEvent success,
      Newest<WindowEvent> refusals,
      DialogueFindings found) {
    List<WindowEvent> before = refusals.items();
    String args = success.event().payload().path("args").toString();
    long changed =
        before.stream()
            .filter(f -> !f.event().payload().path("args").toString().equals(args))
            .count();
    if (changed < failures && refusals.total() < plateau) {
      return;
    }
    ObjectNode details =
        JsonNodeFactory.instance
            .objectNode()
            .put("tool", ToolRoles.toolName(success.event()))
            .put("refusals", refusals.total())
            .put("changed_args", changed);
    List<WindowEvent> cited = new ArrayList<>(before);
    cited.add(success);
    found.add(t, success, cited, success.event().kind() + ".after_refusal", "fail", details);
  }
}
