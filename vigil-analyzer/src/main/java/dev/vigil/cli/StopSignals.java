package dev.vigil.cli;

import java.util.ArrayList;
import java.util.List;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT ask a long-running command to stop instead of ending the JVM, so that it
 * finishes its work in flight, keeps its state and exits 0. The previous handlers come back on
 * {@link #close()}.
 */
final class StopSignals implements AutoCloseable {
  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  private StopSignals() {}

  /**
   * Routes SIGTERM and SIGINT to {@code stop}; a signal the platform does not offer keeps its
   * default.
   */
  static StopSignals install(Runnable stop) {
    StopSignals s = new StopSignals();
    for (String name : List.of("TERM", "INT")) {
      try {
        Signal signal = new Signal(name);
        s.previous.add(Signal.handle(signal, sig -> stop.run()));
        s.signals.add(signal);
      } catch (IllegalArgumentException e) {
        // not offered here (or the JVM runs with -Xrs): the JVM's own handling applies
      }
    }
    return s;
  }

  @Override
  public void close() {
    for (int i = 0; i < signals.size(); i++) {
      Signal.handle(signals.get(i), previous.get(i));
    }
  }
}
