package dev.vigil.diagnose.detect;

import dev.vigil.appraise.ToolRoles;
import java.util.List;

/**
 * A conversation detector (SPEC section 4.4b): reads the window as {@link Conversation sessions of turns}, one session
 * at a time, and collects what it finds in {@link DialogueFindings}.
 */
abstract class DialogueDetector extends WholeWindowDetector {
  private final String name;
  /** The word lists and thresholds. */
  final DialogueSettings words;
  /** The tool roles. */
  final ToolRoles roles;

  DialogueDetector(String name, DetectorSettings settings) {
    this.name = name;
    this.words = settings.dialogue();
    this.roles = settings.roles();
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final Detection detect(List<WindowEvent> window) {
    return detectIn(Conversation.of(window));
  }

  /** Examines the window read as sessions ({@link Detectors#run} reads it once for every conversation detector). */
  final Detection detectIn(List<Conversation.Session> sessions) {
    DialogueFindings found = new DialogueFindings(name);
    for (Conversation.Session s : sessions) {
      session(s, found);
    }
    return found.detection(summary(found.count()));
  }

  /** Reads one session. */
  abstract void session(Conversation.Session session, DialogueFindings found);

  /** The sentence for people when {@code count} instances were found. */
  abstract String summary(int count);
}
