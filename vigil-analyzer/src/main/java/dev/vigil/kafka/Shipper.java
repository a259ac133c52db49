package dev.vigil.kafka;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/**
 * The {@code ship} loop (docs/KAFKA.md): tails a local queue from the last acknowledged position,
 * produces each event as its JSON line (key = agent) with an idempotent producer, and records the
 * position after Kafka has acknowledged a whole batch ({@link ShipPosition}). When Kafka cannot be
 * reached the position stays where it is, the batch is sent again by a new producer after a
 * backoff, and the outage is one line a minute ({@link OutageNotice}): the local queue is the
 * buffer, nothing is lost. Excerpts that are not events are skipped and counted. {@link #stop()}
 * (from a signal) ends the loop; the position kept is the last acknowledged one.
 */
public final class Shipper {
  /** Events sent at once at most before waiting for their acknowledgements. */
  static final int BATCH = 2_000;

  /**
   * The pause between two reads of a queue that has nothing new: the one use of real time when all
   * is well.
   */
  static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

  /** What a {@code ship} did, reported when it stops. */
  public record Totals(long shipped, long skipped, long position) {}

  private final Path queueDir;
  private final String bootstrap;
  private final String topic;
  private final ShipPosition position;
  private final Clock clock;
  private final PrintWriter out;
  private final OutageNotice outage;
  private volatile boolean stopping;
  private volatile Thread loopThread;
  private long shipped;
  private long skipped;

  /**
   * @param clock the outage lines' time source
   * @param out start and stop lines
   * @param err the outage lines
   */
  public Shipper(
      Path queueDir,
      String bootstrap,
      String topic,
      ShipPosition position,
      Clock clock,
      PrintWriter out,
      PrintWriter err) {
    this.queueDir = queueDir;
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.position = position;
    this.clock = clock;
    this.out = out;
    this.outage = new OutageNotice("ship", bootstrap, clock, err);
  }

  /** Asks the loop to stop; safe from any thread (a signal handler). */
  public void stop() {
    stopping = true;
    Thread t = loopThread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Runs until {@link #stop()}.
   *
   * @throws IllegalArgumentException naming the queue or the position file when either is not what
   *     it should be
   */
  public Totals run() throws IOException {
    loopThread = Thread.currentThread();
    long acked = position.read();
    long before = position.shipped();
    shipped = before;
    Backoff backoff = new Backoff();
    try (ChronicleQueue queue = EventQueues.openForReading(queueDir)) {
      ExcerptTailer tailer = queue.createTailer();
      announceStarted(acked);
      Producer<String, String> producer = null;
      try {
        seek(tailer, acked);
        while (!stopping) {
          List<ProducerRecord<String, String>> batch = new ArrayList<>();
          long last = read(tailer, acked, batch);
          if (last == acked) {
            LockSupport.parkNanos(IDLE_PARK_NANOS);
            continue;
          }
          try {
            if (producer == null) {
              producer =
                  new KafkaProducer<>(KafkaClients.idempotentProducer(bootstrap, "vigil-ship"));
            }
            send(producer, batch);
          } catch (ExecutionException | RuntimeException e) {
            // nothing of this batch counts as shipped: the position stays, a new producer sends it
            // all again
            outage.failed(
                e instanceof ExecutionException ? e.getCause() : e,
                "the queue keeps the events, position stays after excerpt "
                    + Long.toHexString(acked));
            closeQuietly(producer);
            producer = null;
            pause(backoff.failed());
            seek(tailer, acked);
            continue;
          }
          backoff.succeeded();
          outage.reached();
          shipped += batch.size();
          acked = last;
          position.write(acked, shipped);
        }
      } finally {
        closeQuietly(producer);
      }
    }
    announceStopped(before, acked);
    return new Totals(shipped - before, skipped, acked);
  }

  /** The first ship line: queue, topic, bootstrap, where it resumes and the position file. */
  private void announceStarted(long acked) {
    out.println(
        Timestamps.format(clock.instant())
            + " ship started: queue "
            + queueDir
            + " to topic "
            + topic
            + " at "
            + bootstrap
            + (acked >= 0
                ? ", resuming after excerpt " + Long.toHexString(acked)
                : ", from the start")
            + "; position in "
            + position.file());
    out.flush();
  }

  /** The last ship line: events shipped, excerpts skipped and the position kept. */
  private void announceStopped(long before, long acked) {
    out.println(
        Timestamps.format(clock.instant())
            + " ship stopped: "
            + (shipped - before)
            + " events shipped"
            + (skipped > 0 ? ", " + skipped + " excerpts skipped (not Vigil events)" : "")
            + "; position "
            + (acked >= 0 ? Long.toHexString(acked) : "none")
            + " kept in "
            + position.file());
    out.flush();
  }

  /**
   * Reads up to a batch after the tailer's place; returns the index of the last excerpt read
   * ({@code from} if none).
   */
  private long read(ExcerptTailer tailer, long from, List<ProducerRecord<String, String>> batch) {
    long last = from;
    while (batch.size() < BATCH && !stopping) {
      try (DocumentContext dc = tailer.readingDocument()) {
        if (!dc.isPresent()) {
          break;
        }
        last = dc.index();
        try {
          Event e = EventWire.read(dc.wire().bytes());
          batch.add(new ProducerRecord<>(topic, e.agent(), EventJson.write(e)));
        } catch (EventFormatException ex) {
          skipped++;
        }
      }
    }
    return last;
  }

  /** Sends a batch and waits for every acknowledgement; the first failure is thrown. */
  private static void send(
      Producer<String, String> producer, List<ProducerRecord<String, String>> batch)
      throws ExecutionException {
    List<Future<RecordMetadata>> acks = new ArrayList<>(batch.size());
    for (ProducerRecord<String, String> r : batch) {
      Future<RecordMetadata> ack = producer.send(r);
      if (ack.isDone()) {
        get(ack); // failed at once (no metadata within max.block.ms): the rest of the batch would
        // wait as long
      }
      acks.add(ack);
    }
    producer.flush();
    for (Future<RecordMetadata> a : acks) {
      get(a);
    }
  }

  private static void get(Future<RecordMetadata> ack) throws ExecutionException {
    try {
      ack.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ExecutionException(e);
    }
  }

  /**
   * Places the tailer just after the excerpt at {@code index} (at the start when there is none).
   */
  private void seek(ExcerptTailer tailer, long index) {
    if (index >= 0 && tailer.moveToIndex(index)) {
      tailer.readingDocument().close(); // acknowledged before
    } else {
      tailer.toStart();
    }
  }

  /** Waits out a backoff, or until {@link #stop()}. */
  private void pause(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    long left;
    while (!stopping && (left = end - System.nanoTime()) > 0) {
      LockSupport.parkNanos(left);
    }
  }

  private static void closeQuietly(Producer<String, String> producer) {
    if (producer != null) {
      try {
        producer.close(Duration.ZERO);
      } catch (RuntimeException e) {
        // closing a producer that cannot reach its cluster: nothing left to keep
      }
    }
  }
}
