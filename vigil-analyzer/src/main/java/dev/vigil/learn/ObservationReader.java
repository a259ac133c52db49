package dev.vigil.learn;

import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.SessionKey;
import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads events, oldest first, into each session's {@link Observations}: the turns from the one
 * reading of the dialogue the conversation detectors share (its {@link #listener()}, subscribed
 * through {@code Detectors.start}), the tool calls and the detectors' findings as they are derived.
 * Used alike by {@code fit} on each labelled session and by a pass scoring its window's sessions.
 */
public final class ObservationReader {
  private static final Set<String> FAILED = Set.of("fail", "timeout", "error");

  private final ToolRoles roles;
  private final FeatureFamilies families;
  private final Map<String, SessionState> sessions = new LinkedHashMap<>();

  /** A reader of the families given, with these tool roles. */
  public ObservationReader(ToolRoles roles, FeatureFamilies families) {
    this.roles = roles;
    this.families = families;
  }

  /**
   * Its reader of the dialogue, to subscribe to the pass's one reading of it before the first
   * event.
   */
  public Conversation.Listener<WindowEvent> listener() {
    return this::reader;
  }

  /** Reads the next event of the window: every session is scored, those without dialogue too. */
  public void accept(WindowEvent w) {
    state(SessionKey.of(w.event()));
  }

  /** Reads a finding a detector derived. */
  public void derived(String detector, Derived d) {
    if (families.findings()) {
      Event e = d.event();
      state(SessionKey.of(e)).obs.add("d:" + detector, e.turn(), e.seq() == null ? -1 : e.seq());
    }
  }

  /**
   * Each session's observations, in the order first seen; after the dialogue it reads is finished.
   */
  public Map<String, Observations> finish() {
    Map<String, Observations> out = new LinkedHashMap<>();
    for (Map.Entry<String, SessionState> e : sessions.entrySet()) {
      out.put(e.getKey(), e.getValue().close());
    }
    return out;
  }

  private SessionState state(String session) {
    SessionState s = sessions.get(session);
    if (s == null) {
      s = new SessionState(session);
      sessions.put(session, s);
    }
    return s;
  }

  private Conversation.Reader<WindowEvent> reader(String session) {
    SessionState s = state(session);
    return new Conversation.Reader<>() {
      @Override
      public void call(Conversation.Turn<WindowEvent> turn, WindowEvent call) {
        s.call(turn.id(), call);
      }

      @Override
      public void complete(Conversation.Turn<WindowEvent> turn) {
        s.turn(turn);
      }
    };
  }

  /** One session's observations as they are read, and the counts kept until it closes. */
  private final class SessionState {
    final Observations obs;
    final Set<String> tools = new HashSet<>();
    String lastCall;
    int turns;
    int calls;
    int failed;
    int reads;
    int writes;

    SessionState(String session) {
      obs = new Observations(session);
    }

    void call(String turn, WindowEvent w) {
      Event e = w.event();
      String tool = ToolRoles.toolName(e);
      String status = e.status() == null ? "" : e.status().toLowerCase(Locale.ROOT);
      ToolRoles.Role role = roles.of(e);
      calls++;
      failed += FAILED.contains(status) ? 1 : 0;
      reads += role == ToolRoles.Role.READ ? 1 : 0;
      writes += role == ToolRoles.Role.WRITE ? 1 : 0;
      tools.add(tool);
      if (families.toolCalls()) {
        String token = tool + ":" + status;
        obs.add("t:" + token, turn, w.ref());
        obs.add("t2:" + (lastCall == null ? "^" : lastCall) + ">" + token, turn, w.ref());
        if (role != ToolRoles.Role.NONE) {
          obs.add("r:" + role.name().toLowerCase(Locale.ROOT) + ":" + status, turn, w.ref());
        }
        lastCall = token;
      }
    }

    void turn(Conversation.Turn<WindowEvent> t) {
      turns++;
      if (families.userWords() && t.user() != null) {
        for (String g : Words.grams(t.userWords())) {
          obs.add("u:" + g, t.id(), t.user().ref());
        }
      }
      if (families.answerWords() && t.answer() != null) {
        for (String g : Words.grams(t.answerWords())) {
          obs.add("a:" + g, t.id(), t.answer().ref());
        }
      }
    }

    Observations close() {
      if (families.counts()) {
        obs.set("n:turns", turns);
        obs.set("n:calls", calls);
        obs.set("n:failed_calls", failed);
        obs.set("n:reads", reads);
        obs.set("n:writes", writes);
        obs.set("n:tools", tools.size());
      }
      return obs;
    }
  }
}
