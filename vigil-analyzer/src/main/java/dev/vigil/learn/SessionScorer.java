package dev.vigil.learn;

import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Scores every session of a pass's window with a model, reading the window as it streams by: each
 * event, the dialogue as the conversation detectors read it, and each finding as the detectors
 * derive it. {@link #finish} gives the sessions, the most likely failed first.
 */
public final class SessionScorer {
  /** The highest probability first; a class, not a lambda: a pass scores once, cold. */
  private static final Comparator<SessionRisk> HIGHEST_FIRST =
      new Comparator<>() {
        @Override
        public int compare(SessionRisk x, SessionRisk y) {
          return Double.compare(y.probability(), x.probability());
        }
      };

  private final SessionModel model;
  private final ObservationReader reader;

  /** A scorer of {@code model}, reading tool roles as the rules define them. */
  public SessionScorer(SessionModel model, ToolRoles roles) {
    this.model = model;
    this.reader = new ObservationReader(roles, model.space().families());
  }

  /**
   * Its reader of the dialogue, to subscribe to the pass's one reading of it ({@code
   * Detectors.start}).
   */
  public Conversation.Listener<WindowEvent> listener() {
    return reader.listener();
  }

  /** Reads the next event of the window. */
  public void accept(WindowEvent w) {
    reader.accept(w);
  }

  /** Reads a finding a detector derived. */
  public void derived(String detector, Derived d) {
    reader.derived(detector, d);
  }

  /** Each session's score, the highest probability first (ties: first seen first). */
  public List<SessionRisk> finish() {
    List<SessionRisk> out = new ArrayList<>();
    for (Observations o : reader.finish().values()) {
      out.add(model.score(o));
    }
    out.sort(HIGHEST_FIRST);
    return out;
  }
}
