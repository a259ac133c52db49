package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.Phrases;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * {@code claim_without_action} (docs/DETECTORS.md#conversation-detectors): the answer states an
 * action as done (a past form of {@code claims}: "cancelled", "has been booked", "I've updated")
 * while no write call of a verb that backs it succeeded in the turn (none was made, or those made
 * failed): premature success ({@code premature_success}) read from the dialogue.
 *
 * <p>A form is no claim when one of {@code negations} stands before it in its clause ("not
 * cancelled", "will be booked", "once the parcel is returned"), when its sentence is a question, or
 * when a tool result of the session's turns so far holds the word (the answer reports a state it
 * looked up: "the order's status is cancelled").
 *
 * <p>Read as a stream: an answer is judged when its turn completes, against the writes read in the
 * turn (those of the claims' verbs: which verbs succeeded, the newest {@value #MAX_FAILED} that
 * failed) and the claim forms the session's tool results held so far.
 *
 * <p>Derived event: {@code turn.claim_without_action}, status {@code fail}, about the answer,
 * payload {@code claims} (the forms) and {@code failed_calls} (the write calls of those verbs that
 * failed).
 */
final class ClaimWithoutAction extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "claim_without_action";

  /** The derived event's kind. */
  static final String KIND = "turn.claim_without_action";

  /** How many failed writes of one turn are kept to cite, the newest. */
  static final int MAX_FAILED = Findings.MAX_CITED;

  /** Every verb some claim names: only writes of these can back or fail a claim. */
  private final Set<String> claimVerbs = new HashSet<>();

  /** The claim forms, which a tool result's words are looked up in. */
  private final Phrases.Lexicon claimForms;

  ClaimWithoutAction(DetectorSettings settings) {
    super(NAME, settings);
    words.claims().values().forEach(claimVerbs::addAll);
    claimForms = Phrases.Lexicon.of(words.claims().keySet());
  }

  @Override
  Conversation.Reader<WindowEvent> reader(DialogueFindings found) {
    return new Session(found);
  }

  @Override
  String summary(int count) {
    return count + " answer(s) state an action as done that no successful call backs";
  }

  /**
   * The writes of one open turn that can back a claim: the verbs that succeeded, the newest calls
   * that failed.
   */
  private static final class Writes {
    static final Writes NONE = new Writes();

    final Set<String> succeeded = new HashSet<>();
    final Newest<WindowEvent> failed = new Newest<>(MAX_FAILED);
  }

  /**
   * One session: the claim forms its tool results so far hold (at most the claims' size) and the
   * writes of its open turns (at most two).
   */
  private final class Session implements Conversation.Reader<WindowEvent> {
    private final DialogueFindings found;
    private final Set<String> lookedUp = new HashSet<>();
    private final Map<Conversation.Turn<WindowEvent>, Writes> writes = new HashMap<>(4);
    private final Consumer<String> keepClaims =
        text -> Phrases.forEachWordIn(text, claimForms, lookedUp::add);

    Session(DialogueFindings found) {
      this.found = found;
    }

    @Override
    public void call(Conversation.Turn<WindowEvent> t, WindowEvent c) {
      JsonNode result = c.event().payload().path("result");
      if (!result.isMissingNode()) {
        jsonTexts(result, keepClaims);
      }
      if (roles.of(c.event()) != ToolRoles.Role.WRITE) {
        return;
      }
      String verb = verb(c);
      if (!claimVerbs.contains(verb)) {
        return;
      }
      Writes w = writes.computeIfAbsent(t, k -> new Writes());
      if (EventFields.SUCCESS.contains(EventFields.status(c.event()))) {
        w.succeeded.add(verb);
      } else {
        w.failed.add(c);
      }
    }

    @Override
    public void complete(Conversation.Turn<WindowEvent> t) {
      Writes w = writes.remove(t);
      if (t.answer() != null) {
        judge(t, w == null ? Writes.NONE : w);
      }
    }

    private void judge(Conversation.Turn<WindowEvent> t, Writes writes) {
      Set<String> unbacked = new LinkedHashSet<>();
      List<WindowEvent> failed = new ArrayList<>();
      String answer = t.answerText();
      for (int[] clause : clauses(answer)) {
        List<String> w = Phrases.words(answer.substring(clause[0], clause[1]));
        for (int i = 0; i < w.size(); i++) {
          List<String> verbs = words.claims().get(w.get(i));
          if (verbs == null || negated(w, i) || lookedUp.contains(w.get(i))) {
            continue;
          }
          if (!backed(writes, verbs, failed)) {
            unbacked.add(w.get(i));
          }
        }
      }
      if (unbacked.isEmpty()) {
        return;
      }
      ObjectNode details = JsonNodeFactory.instance.objectNode();
      ArrayNode claims = details.putArray("claims");
      unbacked.forEach(claims::add);
      ArrayNode failedTools = details.putArray("failed_calls");
      failed.forEach(f -> failedTools.add(ToolRoles.toolName(f.event())));
      List<WindowEvent> cited = new ArrayList<>(failed);
      cited.add(t.answer());
      found.add(t, t.answer(), cited, KIND, "fail", details);
    }
  }

  /**
   * Where the clauses of a text's sentences that are not questions lie, in order, each as its start
   * and end: a sentence ends after each {@code .}, {@code !}, {@code ?} or line end, a clause at
   * each {@code ,}, {@code ;} or {@code :}. The pieces of the regular expressions {@code
   * (?<=[.!?\n])} and then {@code [,;:]} (both with the empty pieces kept), without them.
   */
  static List<int[]> clauses(String text) {
    List<int[]> out = new ArrayList<>();
    int n = text.length();
    for (int start = 0; ; ) {
      int end = start;
      while (end < n && !sentenceEnd(text.charAt(end))) {
        end++;
      }
      int stop = end < n ? end + 1 : n;
      if (stop == start || text.charAt(stop - 1) != '?') { // only a '?' can end it as a question
        for (int from = start; ; ) {
          int to = from;
          while (to < stop && !clauseEnd(text.charAt(to))) {
            to++;
          }
          out.add(new int[] {from, to});
          if (to >= stop) {
            break;
          }
          from = to + 1;
        }
      }
      if (end >= n) {
        return out;
      }
      start = stop;
    }
  }

  private static boolean sentenceEnd(char c) {
    return c == '.' || c == '!' || c == '?' || c == '\n';
  }

  private static boolean clauseEnd(char c) {
    return c == ',' || c == ';' || c == ':';
  }

  /**
   * Hands on the words of a node's JSON form ({@link Phrases#words} of {@code node.toString()}),
   * token by token, without writing the JSON: what stands between two tokens ({@code "}, {@code :},
   * {@code ,}, brackets) parts words as a space would, so each key and value gives the words of its
   * own JSON form.
   */
  static void jsonWords(JsonNode node, Consumer<String> word) {
    jsonTexts(node, text -> Phrases.forEachWord(text, word));
  }

  /**
   * Hands on the JSON form of each key and scalar of a node, in order (a text's as Jackson writes
   * it between its quotes): their words, one after the other, are those of the node's JSON form.
   */
  static void jsonTexts(JsonNode node, Consumer<String> text) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        text.accept(jsonText(f.getKey()));
        jsonTexts(f.getValue(), text);
      }
    } else if (node.isArray()) {
      for (JsonNode e : node) {
        jsonTexts(e, text);
      }
    } else if (node.isTextual()) {
      text.accept(jsonText(node.textValue()));
    } else if (node.isNumber() || node.isBoolean() || node.isNull()) {
      text.accept(node.asText()); // as Jackson writes them
    } else {
      text.accept(node.toString());
    }
  }

  /** A text as Jackson writes it: as it is when it needs no escape, else escaped. */
  private static String jsonText(String text) {
    return unescaped(text) ? text : JsonNodeFactory.instance.textNode(text).toString();
  }

  /**
   * Whether Jackson writes {@code text} as it is between its quotes (no character it escapes, or
   * might).
   */
  static boolean unescaped(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      char ch = text.charAt(i);
      if (ch < 0x20 || ch == '"' || ch == '\\' || ch == '/' || ch >= 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static String verb(WindowEvent c) {
    return ToolRoles.verb(ToolRoles.toolName(c.event())).toLowerCase(Locale.ROOT);
  }

  /** Whether a negation, modal or condition stands before the form in its clause. */
  private boolean negated(List<String> w, int at) {
    for (int j = 0; j < at; j++) {
      for (String n : words.negations()) {
        if (Phrases.matches(w.get(j), n)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a write of one of {@code verbs} succeeded in the turn; collects those that failed. */
  private static boolean backed(Writes writes, List<String> verbs, List<WindowEvent> failed) {
    for (WindowEvent c : writes.failed.items()) {
      if (verbs.contains(verb(c)) && !failed.contains(c)) {
        failed.add(c);
      }
    }
    return verbs.stream().anyMatch(writes.succeeded::contains);
  }
}
