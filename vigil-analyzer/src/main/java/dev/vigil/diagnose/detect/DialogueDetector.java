package dev.vigil.diagnose.detect;

import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.ToolRoles;
import java.util.function.Consumer;

/**
 * A conversation detector (docs/DETECTORS.md#conversation-detectors): reads the window as a {@link
 * Conversation}, streamed, with one {@link Conversation.Reader<WindowEvent> reader} per session
 * that keeps what the detector needs of the session's earlier turns, bounded, and collects what it
 * finds in {@link DialogueFindings}. In a pass the four conversation detectors share one reading of
 * the dialogue ({@link DetectorScans}); alone, a detector reads it for itself.
 */
abstract class DialogueDetector implements Detector {
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
  public final Scan scan(Consumer<Derived> derived) {
    Conversation<WindowEvent> dialogue = new Conversation<WindowEvent>();
    Scan mine = scanIn(dialogue, derived);
    return new Scan() {
      @Override
      public void accept(WindowEvent event) {
        dialogue.accept(event);
      }

      @Override
      public Detection finish() {
        return mine.finish();
      }
    };
  }

  /**
   * Reads a dialogue that others feed (the pass's one reading for every conversation detector): the
   * scan's {@link Scan#accept} does nothing, and its {@link Scan#finish} finishes the dialogue
   * (once for all) first.
   */
  final Scan scanIn(Conversation<WindowEvent> dialogue, Consumer<Derived> derived) {
    DialogueFindings found = new DialogueFindings(name, derived);
    dialogue.subscribe(session -> reader(found));
    return new Scan() {
      @Override
      public void accept(WindowEvent event) {
        // the dialogue is fed by whoever shares it
      }

      @Override
      public Detection finish() {
        dialogue.finish();
        return found.detection(summary(found.count()), dialogue.closedEarly());
      }
    };
  }

  /** A reader of one session that begins: its state is all the detector keeps of the session. */
  abstract Conversation.Reader<WindowEvent> reader(DialogueFindings found);

  /** The sentence for people when {@code count} instances were found. */
  abstract String summary(int count);
}
