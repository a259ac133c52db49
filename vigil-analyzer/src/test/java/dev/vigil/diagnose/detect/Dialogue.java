package dev.vigil.diagnose.detect;

import java.util.ArrayList;
import java.util.List;

/**
 * Builds a conversation as JSONL lines, one second apart: user messages, tool calls and answers of
 * turns.
 */
final class Dialogue {
  private final List<String> lines = new ArrayList<>();
  private final String session;
  private int second;
  private int turns;
  private String turn;

  private Dialogue(String session) {
    this.session = session;
  }

  static Dialogue session(String session) {
    return new Dialogue(session);
  }

  /** Opens a turn with the user's message. */
  Dialogue user(String text) {
    turn = session + "-t" + ++turns;
    return line("turn.user", "ok", "{\"text\":\"" + text + "\"}");
  }

  /** A tool call of the current turn. */
  Dialogue call(String tool, String status, String args, String result) {
    return line(
        "tool." + tool,
        status,
        "{\"tool\":\""
            + tool
            + "\",\"args\":"
            + args
            + (result == null ? "" : ",\"result\":" + result)
            + "}");
  }

  /** A successful call with empty arguments and no result. */
  Dialogue ok(String tool) {
    return call(tool, "ok", "{}", null);
  }

  /** A failed call with empty arguments. */
  Dialogue fail(String tool) {
    return call(tool, "fail", "{}", null);
  }

  /** The turn's answer. */
  Dialogue answer(String text) {
    return line("turn.answer", "ok", "{\"text\":\"" + text + "\",\"tool_calls\":0}");
  }

  private Dialogue line(String kind, String status, String payload) {
    int s = second++;
    lines.add(
        String.format(
            "{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"%s\",\"status\":\"%s\",\"payload\":%s,"
                + "\"session\":\"%s\",\"turn\":\"%s\"}",
            s / 60, s % 60, kind, status, payload, session, turn));
    return this;
  }

  List<String> lines() {
    return List.copyOf(lines);
  }

  /**
   * Only the tool calls, without turn ids or the dialogue, as a trace without conversation capture
   * has them.
   */
  List<String> callsOnly() {
    return lines.stream()
        .filter(l -> l.contains("\"kind\":\"tool."))
        .map(l -> l.replaceAll(",\"turn\":\"[^\"]*\"", ""))
        .toList();
  }
}
