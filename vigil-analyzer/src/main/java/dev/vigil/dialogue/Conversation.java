package dev.vigil.dialogue;

import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The one model of the dialogue, read one event at a time, oldest first, by the conversation
 * detectors, the judge and {@code fit}: each session's turns, each turn the user message that
 * opened it, the tool calls made while answering it and the answer. Its {@link Reader readers} (one
 * per conversation detector and session) see each call as it joins its turn and each turn when it
 * is complete.
 *
 * <p>A session is {@link SessionKey#of}. A turn is the events' {@code turn} id within the session;
 * events without one are placed by position: a {@code turn.user} opens a turn, the tool calls after
 * it join it and a {@code turn.answer} closes it. Only tool calls ({@link ToolRoles#isToolCall})
 * are calls; other events are not part of the dialogue.
 *
 * <p>Memory does not grow with the window: a session keeps at most one open turn with an id and one
 * placed by position, and a turn keeps its user message, its answer and its first event, not its
 * calls (a reader keeps what it needs of them, bounded). A turn is complete when its answer
 * arrives, when the session's next turn of the same sort begins (another id; a {@code turn.user}
 * after the open positional turn's user or calls), when its session is closed or at {@link
 * #finish}; a later event of a completed turn's id opens a new turn with that id. At most {@value
 * #MAX_SESSIONS} sessions are kept open: when another one begins, the least recently active one is
 * closed (its open turns completed, its readers' state dropped), and an event of it that comes
 * later begins it anew, with no earlier turns.
 */
public final class Conversation<T extends DialogueEvent> {
  /** How many sessions are kept open at most by default. */
  public static final int MAX_SESSIONS = 10_000;

  /**
   * What a detector reads of one session: its state about the session, bounded, dropped with the
   * session.
   */
  public interface Reader<T extends DialogueEvent> {
    /** A tool call joined {@code turn}, still open. */
    default void call(Turn<T> turn, T call) {}

    /** {@code turn} is complete: it gets no more events. */
    void complete(Turn<T> turn);
  }

  /** A subscriber: gives its reader of each session as the session begins. */
  public interface Listener<T extends DialogueEvent> {
    /** The reader of a session that begins. */
    Reader<T> open(String session);
  }

  /**
   * One turn, as far as it has been read; readers must not keep it past {@link Reader#complete}.
   */
  public static final class Turn<T extends DialogueEvent> {
    private final String session;
    private final String id;
    private final long order;
    private T user;
    private T answer;
    private T firstCall;
    private int calls;
    private List<String> userWords;
    private List<String> answerWords;

    private Turn(String session, String id, long order) {
      this.session = session;
      this.id = id;
      this.order = order;
    }

    /** The session's key. */
    public String session() {
      return session;
    }

    /** The turn's id, or a positional id ({@code #1}, {@code #2}…) when the events carry none. */
    public String id() {
      return id;
    }

    /** The {@code turn.user} event, or null when the window does not hold it (yet). */
    public T user() {
      return user;
    }

    /** The {@code turn.answer} event, or null. */
    public T answer() {
      return answer;
    }

    /** How many tool calls joined the turn. */
    public int calls() {
      return calls;
    }

    /** The user's message, or empty. */
    public String userText() {
      return text(user);
    }

    /** The agent's answer, or empty. */
    public String answerText() {
      return text(answer);
    }

    /**
     * The words of the user's message ({@link Phrases#words}), read once for every reader; not to
     * be changed.
     */
    public List<String> userWords() {
      if (userWords == null) {
        userWords = Collections.unmodifiableList(Phrases.words(userText()));
      }
      return userWords;
    }

    /** The words of the answer ({@link Phrases#words}), read once for every reader. */
    public List<String> answerWords() {
      if (answerWords == null) {
        answerWords = Collections.unmodifiableList(Phrases.words(answerText()));
      }
      return answerWords;
    }

    /** The first event of the turn, for evidence and the derived event's place. */
    public T first() {
      return user != null ? user : firstCall != null ? firstCall : answer;
    }
  }

  private final int maxSessions;
  private final List<Listener<T>> listeners = new ArrayList<>();

  /** Open sessions, least recently active first. */
  private final LinkedHashMap<String, Session<T>> sessions = new LinkedHashMap<>(64, 0.75f, true);

  private long closedEarly;
  private long turnsBegun;
  private boolean finished;

  /** A reading that keeps at most {@value #MAX_SESSIONS} sessions open. */
  public Conversation() {
    this(MAX_SESSIONS);
  }

  /** A reading that keeps at most {@code maxSessions} sessions open (tests use a small number). */
  public Conversation(int maxSessions) {
    if (maxSessions < 1) {
      throw new IllegalArgumentException("maxSessions must be at least 1, not " + maxSessions);
    }
    this.maxSessions = maxSessions;
  }

  /** Adds a subscriber; before the first event. */
  public void subscribe(Listener<T> listener) {
    if (!sessions.isEmpty() || finished) {
      throw new IllegalStateException("subscribe before the first event");
    }
    listeners.add(listener);
  }

  /** The text of a user message or answer; empty for null. */
  public static String text(DialogueEvent w) {
    return w == null ? "" : w.event().payload().path("text").asText("");
  }

  /** Whether an event is a user message. */
  public static boolean isUser(Event e) {
    return e.kind().equals("turn.user");
  }

  /** Whether an event is an answer. */
  public static boolean isAnswer(Event e) {
    return e.kind().equals("turn.answer");
  }

  /** Reads the next event of the window; events that are no turn or call are passed over. */
  public void accept(T w) {
    if (finished) {
      throw new IllegalStateException("the conversation is finished");
    }
    Event e = w.event();
    boolean user = isUser(e);
    boolean answer = isAnswer(e);
    if (!user && !answer && !ToolRoles.isToolCall(e)) {
      return;
    }
    String key = SessionKey.of(e);
    Session<T> s = sessions.get(key);
    if (s == null) {
      if (sessions.size() >= maxSessions) {
        Iterator<Session<T>> eldest = sessions.values().iterator();
        Session<T> closed = eldest.next();
        eldest.remove();
        closed.close();
        closedEarly++;
      }
      s = new Session<>(key, listeners, this);
      sessions.put(key, s);
    }
    s.add(w, user, answer);
  }

  /** Completes every open turn, least recently active session first; once. */
  public void finish() {
    if (finished) {
      return;
    }
    finished = true;
    sessions.values().forEach(Session::close);
    sessions.clear();
  }

  /** How many sessions are open. */
  public int openSessions() {
    return sessions.size();
  }

  /** How many sessions were closed early to keep at most the maximum open. */
  public long closedEarly() {
    return closedEarly;
  }

  /** One open session: its open turns and its readers. */
  private static final class Session<T extends DialogueEvent> {
    private final String key;
    private final List<Reader<T>> readers;
    private final Conversation<T> owner;
    private Turn<T> withId;
    private Turn<T> positional;
    private int positions;

    Session(String key, List<Listener<T>> listeners, Conversation<T> owner) {
      this.key = key;
      this.owner = owner;
      this.readers = new ArrayList<>(listeners.size());
      listeners.forEach(l -> readers.add(l.open(key)));
    }

    void add(T w, boolean user, boolean answer) {
      String id = w.event().turn();
      Turn<T> t;
      if (id != null) {
        if (withId == null || !withId.id.equals(id)) {
          complete(withId);
          withId = new Turn<>(key, id, owner.turnsBegun++);
        }
        t = withId;
      } else {
        if (positional == null || (user && (positional.user != null || positional.calls > 0))) {
          complete(positional);
          positional = new Turn<>(key, "#" + ++positions, owner.turnsBegun++);
        }
        t = positional;
      }
      if (user) {
        if (t.user == null) {
          t.user = w;
        }
      } else if (answer) {
        t.answer = w;
        if (t == withId) {
          withId = null;
        } else {
          positional = null;
        }
        complete(t);
      } else {
        t.calls++;
        if (t.firstCall == null) {
          t.firstCall = w;
        }
        for (Reader<T> r : readers) {
          r.call(t, w);
        }
      }
    }

    private void complete(Turn<T> t) {
      if (t != null) {
        for (Reader<T> r : readers) {
          r.complete(t);
        }
      }
    }

    /** Completes the open turns, the older first. */
    void close() {
      Turn<T> a = withId;
      Turn<T> b = positional;
      withId = null;
      positional = null;
      if (a != null && b != null && b.order < a.order) {
        complete(b);
        complete(a);
      } else {
        complete(a);
        complete(b);
      }
    }
  }
}
