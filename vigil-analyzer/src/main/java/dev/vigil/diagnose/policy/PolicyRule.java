package dev.vigil.diagnose.policy;

import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;

/**
 * One policy rule of the rules file (docs/POLICIES.md): a precondition on the calls of one tool,
 * written as a CEL expression that holds when the call breaks it.
 *
 * @param name lower-case letters, digits and underscores; the detector and its derived events are
 *     {@code policy.<name>}
 * @param tool the tool it watches: a call's {@code payload.tool} or its kind's last segment
 * @param violation the CEL expression; true means the call broke the policy
 * @param severity in [0, 1]: the intensity of the frustration a violation is appraised as
 * @param description what the policy is for, in words (optional, may be empty)
 */
public record PolicyRule(
    String name, String tool, String violation, double severity, String description) {
  /** The prefix of the detector's name and of its derived events' kind. */
  public static final String PREFIX = "policy.";

  /** The detector's name and the derived events' kind: {@code policy.<name>}. */
  public String detectorName() {
    return PREFIX + name;
  }

  /**
   * Whether the rule watches this event: a call of its tool, by {@code payload.tool} or by the
   * kind's last segment ({@code tool.refund_order}); the user's and the agent's messages ({@code
   * turn.*}) and Vigil's own events ({@code vigil.*}) are no calls.
   */
  boolean watches(Event e) {
    String kind = e.kind();
    if (kind.startsWith("turn.") || kind.startsWith("vigil.")) {
      return false;
    }
    return tool.equals(lastSegment(kind)) || tool.equals(toolName(e));
  }

  /** The call's tool, as every reader of the dialogue names it ({@link ToolRoles#toolName}). */
  static String toolName(Event e) {
    return ToolRoles.toolName(e);
  }

  private static String lastSegment(String kind) {
    return kind.substring(kind.lastIndexOf('.') + 1);
  }
}
