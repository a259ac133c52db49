package dev.vigil.dialogue;

import dev.vigil.ingest.AgentName;
import dev.vigil.observe.Event;

/**
 * The one key of a session, used by the conversation detectors, the policy rules, the judge, {@code
 * eval} and {@code fit} alike: the event's {@code session} when it is not blank, else its agent's
 * display name (events without a session form one session per agent). Turns are read within a
 * session whatever agent wrote them.
 */
public final class SessionKey {
  private SessionKey() {}

  /** The session the event belongs to. */
  public static String of(Event e) {
    String s = e.session();
    return s != null && !s.isBlank() ? s : AgentName.display(e.agent());
  }
}
