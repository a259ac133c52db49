package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WholeWindowDetector;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Claims;
import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The LLM judge (docs/DETECTORS.md#the-llm-judge): after the deterministic detectors, the model is
 * asked, turn by turn for the turns that made a write call or claimed one, whether the turn broke
 * the agent's own instructions ({@code --prompt}, with the session's earlier user messages, tool
 * results and answers as evidence). Each yes that cites a rule becomes a {@code judge.violation}
 * derived event (status {@code fail}, payload {@code rule}, {@code reason}, {@code turn}, {@code
 * session}), keyed on the turn's answer so that it is deposited once however often it is judged. It
 * runs as the last detector, named {@code judge}.
 *
 * <p>Each question is one call of the budget ({@link LlmConfig#maxCalls()}), and the session has
 * the wall-clock budget ({@link LlmConfig#timeout()}) on the injected clock. An answer that is not
 * the strict JSON verdict is counted and its turn skipped. When a budget runs out or the server
 * fails, the remaining turns are not judged and the detection says so; it never throws, so the
 * deterministic findings stand as they are. Verdicts are remembered by turn and instructions, so
 * {@code watch}'s passes over overlapping windows ask only about new turns.
 */
public final class Judge extends WholeWindowDetector {
  /** The detector's name in {@code report.json}. */
  public static final String NAME = "judge";

  /** The kind of the derived event. */
  public static final String KIND = "judge.violation";

  /** The judge stopped because a budget ran out. */
  static final String BUDGET = "budget";

  /** The judge stopped because the server failed. */
  static final String SERVER = "server";

  /** At most this many verdicts are remembered. */
  static final int MEMO_SIZE = 4096;

  /** A not-understood answer is quoted in the evidence up to this many characters. */
  static final int QUOTED_ANSWER_CHARS = 200;

  private record MemoKey(long answerIdentity, int instructionsHash) {}

  private final LlmConfig config;
  private final ChatModel model;
  private final Clock clock;
  private final Path prompt;
  private final Predicate<String> writeTool;
  private final Claims claims;
  private final Map<MemoKey, Verdict> memo =
      Collections.synchronizedMap(
          new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<MemoKey, Verdict> eldest) {
              return size() > MEMO_SIZE;
            }
          });

  /**
   * A judge asking the configured server through LangChain4j's OpenAI client.
   *
   * @param clock the wall-clock budget is measured on it
   * @param prompt the agent's prompt file ({@code --prompt}), read at each pass; null: no
   *     instructions given
   */
  public static Judge of(
      LlmConfig config, Clock clock, Path prompt, ToolRoles roles, Claims claims) {
    return new Judge(
        config,
        LlmDriver.openAi(config),
        clock,
        prompt,
        t -> roles.ofTool(t) == ToolRoles.Role.WRITE,
        claims);
  }

  /**
   * @param writeTool which tool names write
   * @param claims the words by which an answer claims a write: the rules file's, as the detector
   *     reads them
   */
  Judge(
      LlmConfig config,
      ChatModel model,
      Clock clock,
      Path prompt,
      Predicate<String> writeTool,
      Claims claims) {
    this.claims = claims;
    this.config = config;
    this.model = model;
    this.clock = clock;
    this.prompt = prompt;
    this.writeTool = writeTool;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Detection detect(List<WindowEvent> window) {
    List<Turn> turns = Turn.all(window);
    // a turn of dialogue (a user message or an answer) that wrote or claimed a write; bare calls
    // with neither, as an
    // agent without conversation capture records them, give the model nothing to judge against
    List<Turn> toJudge =
        turns.stream()
            .filter(
                t ->
                    (t.user() != null || t.answer() != null)
                        && (!t.writes(writeTool).isEmpty() || t.claim(claims) != null))
            .toList();
    Judging judging = new Judging(window, instructions(), clock.instant().plus(config.timeout()));
    for (Turn t : toJudge) {
      if (!judging.judge(t)) {
        break;
      }
    }
    return judging.detection(turns.size(), toJudge.size());
  }

  /**
   * One {@link #detect}'s judging of its window's turns: the budget's deadline, the verdicts and
   * violations so far, the counts the evidence reports and, once it stopped early, why.
   */
  private final class Judging {
    private final List<WindowEvent> window;
    private final String instructions;
    private final Instant deadline;
    private final ArrayNode verdicts = JsonNodeFactory.instance.arrayNode();
    private final List<Derived> derived = new ArrayList<>();
    private int calls;
    private int reached;
    private int reused;
    private int notUnderstood;
    private String stopped;
    private String stopReason;

    Judging(List<WindowEvent> window, String instructions, Instant deadline) {
      this.window = window;
      this.instructions = instructions;
      this.deadline = deadline;
    }

    /**
     * Judges one turn: the remembered verdict, else the model's, within the budgets; records it in
     * the evidence and a violation as a derived event.
     *
     * @return false when the judging stopped (a budget ran out, the server failed) and the turn was
     *     not judged
     */
    boolean judge(Turn t) {
      MemoKey key = new MemoKey(t.last().identity(), instructions.hashCode());
      Verdict v = memo.get(key);
      String answer = null;
      if (v != null) {
        reused++;
      } else {
        if (budgetRanOut()) {
          return false;
        }
        try {
          calls++;
          answer = ask(t);
        } catch (RuntimeException e) {
          failed(e);
          return false;
        }
        v = Verdict.parse(answer);
        if (v != null) {
          memo.put(key, v);
        }
      }
      reached++;
      record(t, v, answer);
      return true;
    }

    /** Stops before the next question when the calls or the wall-clock budget have run out. */
    private boolean budgetRanOut() {
      if (calls >= config.maxCalls()) {
        stopped = BUDGET;
        stopReason = "the budget of " + config.maxCalls() + " calls ran out";
        return true;
      }
      if (clock.instant().isAfter(deadline)) {
        stopped = BUDGET;
        stopReason = wallClock();
        return true;
      }
      return false;
    }

    /** The model's answer to the question about the turn, or null when it gave no message. */
    private String ask(Turn t) {
      AiMessage ai =
          model
              .chat(
                  ChatRequest.builder()
                      .messages(
                          SystemMessage.from(JudgePrompt.SYSTEM),
                          UserMessage.from(JudgePrompt.of(instructions, t, t.earlier(window))))
                      .build())
              .aiMessage();
      return ai == null ? null : ai.text();
    }

    /** Stops on a failed call: the budget when it timed out, the server otherwise. */
    private void failed(RuntimeException e) {
      // the client's timeout is the wall-clock budget: a request that timed out ran the budget out
      boolean budget = clock.instant().isAfter(deadline) || LlmDriver.timedOut(e);
      stopped = budget ? BUDGET : SERVER;
      stopReason =
          budget
              ? wallClock()
              : "the LLM server failed: "
                  + e.getClass().getSimpleName()
                  + ": "
                  + LlmDriver.firstLine(e.getMessage());
    }

    /**
     * The turn's verdict in the evidence (its answer quoted when not understood), and a violation's
     * derived event.
     */
    private void record(Turn t, Verdict v, String answer) {
      ObjectNode n = turnJson(verdicts.addObject(), t);
      if (v == null) {
        notUnderstood++;
        n.put("verdict", "not_understood")
            .put("answer", answer == null ? null : JudgePrompt.cut(answer, QUOTED_ANSWER_CHARS));
        return;
      }
      n.put("verdict", v.violation() ? "violation" : "clean")
          .put("rule", v.rule())
          .put("reason", v.reason());
      if (v.violation()) {
        derived.add(new Derived(violation(t, v), t.last().identity()));
      }
    }

    /** The detection: the violations, the counts and budgets in the evidence, and the summary. */
    Detection detection(int turns, int toJudge) {
      int judged = reached - notUnderstood;
      ObjectNode evidence = JsonNodeFactory.instance.objectNode();
      evidence
          .put("turns", turns)
          .put("turns_to_judge", toJudge)
          .put("judged", judged)
          .put("reused", reused)
          .put("violations", derived.size())
          .put("not_understood", notUnderstood)
          .put("calls", calls)
          .put("instructions", prompt == null ? null : prompt.toString());
      evidence
          .putObject("budget")
          .put("calls", config.maxCalls())
          .put("seconds", config.timeout().toMillis() / 1000.0);
      evidence.put("stopped", stopped).put("stop_reason", stopReason);
      evidence.set("verdicts", verdicts);
      return new Detection(
          NAME,
          derived.size(),
          evidence,
          summary(toJudge, reached, derived, notUnderstood, stopped, stopReason),
          derived);
    }
  }

  private String wallClock() {
    return "the wall-clock budget of " + config.timeout().toSeconds() + " s ran out";
  }

  /** The agent's instructions: the prompt file's text, "" when none was given. */
  private String instructions() {
    if (prompt == null) {
      return "";
    }
    try {
      return Files.readString(prompt);
    } catch (IOException | RuntimeException e) {
      return "(the prompt file " + prompt + " could not be read: " + e.getMessage() + ")";
    }
  }

  /**
   * The turn as the evidence cites it: session, turn, the refs of its events, its writes and its
   * claim.
   */
  private ObjectNode turnJson(ObjectNode n, Turn t) {
    n.put("session", t.session()).put("turn", t.id());
    ArrayNode refs = n.putArray("refs");
    t.refs().forEach(refs::add);
    ArrayNode writes = n.putArray("writes");
    t.writes(writeTool).forEach(writes::add);
    n.put("claim", t.claim(claims));
    return n;
  }

  /** The derived event: at the turn's answer, with its agent, session and turn. */
  private Event violation(Turn t, Verdict v) {
    Event at = t.last().event();
    ObjectNode payload =
        JsonNodeFactory.instance
            .objectNode()
            .put("rule", v.rule())
            .put("reason", v.reason())
            .put("turn", t.id())
            .put("session", t.session());
    ArrayNode refs = payload.putArray("refs");
    t.refs().forEach(refs::add);
    return new Event(
        at.ts(),
        KIND,
        "fail",
        payload,
        at.agent(),
        null,
        at.pid(),
        null,
        t.id(),
        null,
        t.session());
  }

  private static String summary(
      int toJudge,
      int reached,
      List<Derived> derived,
      int notUnderstood,
      String stopped,
      String stopReason) {
    String found = derived.size() + (derived.size() == 1 ? " violation" : " violations");
    String skipped =
        notUnderstood == 0
            ? ""
            : "; "
                + notUnderstood
                + (notUnderstood == 1 ? " answer" : " answers")
                + " not understood (turn skipped)";
    if (stopped != null) {
      return "stopped after "
          + reached
          + " of "
          + toJudge
          + " turns: "
          + stopped
          + " ("
          + stopReason
          + "); "
          + found
          + " before that"
          + skipped
          + "; the deterministic findings stand";
    }
    if (toJudge == 0) {
      return "no turn made a write call or claimed one: nothing to judge";
    }
    String first = "";
    if (!derived.isEmpty()) {
      var p = derived.get(0).event().payload();
      first = "; turn " + p.get("turn").asText() + " broke \"" + p.get("rule").asText() + "\"";
    }
    return found
        + " in "
        + toJudge
        + (toJudge == 1 ? " turn" : " turns")
        + " with a write or a claim"
        + first
        + skipped;
  }
}
