package dev.vigil.api;

import dev.vigil.observe.Event;
import java.util.Optional;

/**
 * A detector of your own, one event at a time: the pass hands it each event of the window, oldest
 * first, and it tells which are findings by deriving an event from them. Derived events are
 * appraised, deposited and diagnosed like Vigil's own, and the detector is listed in {@code
 * report.json} under {@code detectors} with its count and the events it cited. A detector that
 * keeps state across events or reads the whole window implements the full detector interface
 * instead (docs/LIBRARY.md, "Detectors that keep state").
 */
public interface EventDetector {
  /** Its name, as the report lists it. */
  String name();

  /**
   * The event to derive from {@code event} when it is a finding, often {@code Event.of(event.ts(),
   * event.kind() + ".something", "fail")}; empty when it is not.
   */
  Optional<Event> derive(Event event);

  /** The report's one line on what it found, given how many events it derived. */
  default String summary(int count) {
    return count + " events found by " + name();
  }
}
