package dev.vigil.observe.capture;

/**
 * One side of a turn of the conversation (docs/DESIGN.md, "The event"), as the calling thread hands
 * it to the writer: the user message that opened the turn ({@code turn.user}) or the answer that
 * closed it ({@code turn.answer}).
 *
 * @param kind {@link #USER} or {@link #ANSWER}
 * @param nanos {@link System#nanoTime()} when the turn began ({@code turn.user}) or ended ({@code
 *     turn.answer})
 * @param thread name of the calling thread
 * @param turn the turn id
 * @param session the conversation, or null
 * @param text the snapshot of the text (see {@link ValueCapture}), or null
 * @param toolCalls how many tool calls the turn made (for the answer)
 * @param thrown what the framework call threw (for the answer), or null
 */
public record CapturedTurn(
    String kind,
    long nanos,
    String thread,
    String turn,
    String session,
    Object text,
    int toolCalls,
    Throwable thrown)
    implements Captured {
  static final String USER = "turn.user";
  public static final String ANSWER = "turn.answer";

  /** The user message that opened a turn. */
  static CapturedTurn user(long nanos, String thread, String turn, String session, Object text) {
    return new CapturedTurn(USER, nanos, thread, turn, session, text, 0, null);
  }

  /** The answer that closed a turn, or what the framework call threw instead. */
  static CapturedTurn answer(
      long nanos,
      String thread,
      String turn,
      String session,
      Object text,
      int toolCalls,
      Throwable thrown) {
    return new CapturedTurn(ANSWER, nanos, thread, turn, session, text, toolCalls, thrown);
  }
}
