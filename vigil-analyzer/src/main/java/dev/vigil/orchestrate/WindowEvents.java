package dev.vigil.orchestrate;

import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.PendingEvent;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The events a pass uses (docs/DESIGN.md#the-window), walked oldest first and never all held: each
 * walk reads them again from the input. An input in time order streams as it is read; events a
 * little out of order (a queue is appended in the order calls end, its events carry the time they
 * began) are put back in order through a buffer of {@value #REORDER} events; an event older than
 * one already handed on is handed on at once and counted ({@link #outOfOrder()}).
 */
public final class WindowEvents {
  /** Events held to restore time order. */
  static final int REORDER = 4096;

  /** Re-reads the input, handing on the events the pass uses, in input order. */
  @FunctionalInterface
  interface Reader {
    void read(Selected sink) throws IOException;
  }

  /** Receives one event the pass uses. */
  @FunctionalInterface
  interface Selected {
    void accept(PendingEvent event, LongSupplier identity, long ref, long order);
  }

  private record Held(WindowEvent event, long tsNanos, long order) {}

  /** By time, ties in input order (the keys are primitives: the buffer compares often). */
  private static final Comparator<Held> TIME_ORDER =
      (a, b) ->
          a.tsNanos != b.tsNanos
              ? Long.compare(a.tsNanos, b.tsNanos)
              : Long.compare(a.order, b.order);

  private final Reader reader;
  private final long size;
  private long outOfOrder;

  private WindowEvents(Reader reader, long size) {
    this.reader = reader;
    this.size = size;
  }

  /** The events the reader hands on; {@code size} of them. */
  static WindowEvents reading(Reader reader, long size) {
    return new WindowEvents(reader, size);
  }

  /** Events already in memory, oldest first (tests, a pass over a few events). */
  public static WindowEvents of(List<WindowEvent> events) {
    List<WindowEvent> copy = List.copyOf(events);
    return new WindowEvents(
        sink -> {
          long n = 0;
          for (WindowEvent w : copy) {
            sink.accept(PendingEvent.of(w.event(), w.naiveTs()), w::identity, w.ref(), n++);
          }
        },
        copy.size());
  }

  /** How many events the pass uses. */
  public long size() {
    return size;
  }

  /** Events of the last walk that came later in the input than a newer event already handed on. */
  public long outOfOrder() {
    return outOfOrder;
  }

  /**
   * Hands every event to {@code each}, oldest first.
   *
   * @throws UncheckedIOException when the input can no longer be read
   */
  public void forEach(Consumer<WindowEvent> each) {
    TimeOrderBuffer<Held> held = new TimeOrderBuffer<>(TIME_ORDER);
    Held[] last = {null};
    long[] late = {0};
    Consumer<Held> handOn =
        h -> {
          last[0] = h;
          each.accept(h.event());
        };
    try {
      reader.read(
          (event, identity, ref, order) -> {
            Held h =
                new Held(
                    new WindowEvent(event.event(), identity.getAsLong(), ref, event.naiveTs()),
                    Timestamps.epochNanos(event.ts()),
                    order);
            if (last[0] != null && TIME_ORDER.compare(h, last[0]) < 0) {
              late[0]++;
              each.accept(h.event()); // older than what was handed on: its place has passed
              return;
            }
            held.add(h);
            if (held.size() > REORDER) {
              handOn.accept(held.poll());
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("the input can no longer be read: " + e.getMessage(), e);
    }
    while (!held.isEmpty()) {
      handOn.accept(held.poll());
    }
    outOfOrder = late[0];
  }
}
