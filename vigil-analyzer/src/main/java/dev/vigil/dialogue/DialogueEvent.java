package dev.vigil.dialogue;

import dev.vigil.observe.Event;

/** An event as a reader of the dialogue holds it: the event and what evidence cites it by. */
public interface DialogueEvent {
  /** The event. */
  Event event();

  /** What evidence cites: a line number or the agent's {@code seq}. */
  long ref();
}
