package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.Phrases;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code user_correction} (docs/DETECTORS.md#conversation-detectors): the user says the agent got
 * it wrong or complains (a phrase of {@code corrections}), or repeats a request already made in the
 * session: its {@link ContentWords content words} share at least {@code shared_words} (3, as in
 * {@code failure_plateau}) and a Jaccard overlap of at least {@code repeat_min_overlap} (0.7) with
 * an earlier user message.
 *
 * <p>Read as a stream: a user message is judged when its turn completes, against the session's
 * newest {@value #MAX_EARLIER} earlier user messages (a repeat of an older one is not seen).
 *
 * <p>Derived event: {@code turn.user_correction}, status {@code complaint}, about the user message,
 * payload {@code said} (the phrase) or {@code repeats} (the shared words) with {@code
 * repeated_ref}.
 */
final class UserCorrection extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "user_correction";

  /** The derived event's kind. */
  static final String KIND = "turn.user_correction";

  /** How many of a session's earlier user messages a message is compared with, the newest. */
  static final int MAX_EARLIER = 20;

  private final int sharedWords;
  private final Phrases.Compiled corrections;

  UserCorrection(DetectorSettings settings) {
    super(NAME, settings);
    this.corrections = Phrases.compile(words.corrections());
    this.sharedWords = settings.plateauSharedWords();
  }

  private record Said(WindowEvent event, Set<String> words) {}

  @Override
  Conversation.Reader<WindowEvent> reader(DialogueFindings found) {
    return new Session(found);
  }

  @Override
  String summary(int count) {
    return count + " user message(s) correct the agent, complain or repeat a request";
  }

  /** One session: its newest {@value #MAX_EARLIER} user messages with their content words. */
  private final class Session implements Conversation.Reader<WindowEvent> {
    private final DialogueFindings found;
    private final Newest<Said> earlier = new Newest<>(MAX_EARLIER);

    Session(DialogueFindings found) {
      this.found = found;
    }

    @Override
    public void complete(Conversation.Turn<WindowEvent> t) {
      if (t.user() != null) {
        Said said = new Said(t.user(), ContentWords.of(t.userText()));
        judge(t, said, earlier.items(), found);
        earlier.add(said);
      }
    }
  }

  private void judge(
      Conversation.Turn<WindowEvent> t, Said said, List<Said> earlier, DialogueFindings found) {
    String phrase = Phrases.first(t.userWords(), corrections);
    if (phrase != null) {
      found.add(
          t,
          t.user(),
          List.of(t.user()),
          KIND,
          "complaint",
          JsonNodeFactory.instance.objectNode().put("said", phrase));
      return;
    }
    for (Said before : earlier) {
      int common = 0;
      for (String w : said.words()) {
        common += before.words().contains(w) ? 1 : 0;
      }
      int union = said.words().size() + before.words().size() - common;
      if (common >= sharedWords && common >= words.repeatMinOverlap() * union) {
        Set<String> shared = new TreeSet<>(said.words());
        shared.retainAll(before.words());
        ObjectNode details =
            JsonNodeFactory.instance.objectNode().put("repeated_ref", before.event().ref());
        ArrayNode repeats = details.putArray("repeats");
        shared.forEach(repeats::add);
        found.add(t, t.user(), List.of(before.event(), t.user()), KIND, "complaint", details);
        return;
      }
    }
  }
}
