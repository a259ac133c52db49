package dev.vigil.kafka;

import dev.vigil.ingest.QueueSpills;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * The {@code ship} loop (docs/KAFKA.md): tails a local queue from the last committed position and
 * produces each event as its JSON line (key = agent), a batch at a time, each batch one Kafka
 * transaction that also writes the batch's end into the {@link ShipLedger}. So a batch is in Kafka
 * with its position or not at all, and every event is shipped exactly once: after any failure, a
 * new producer with the ship's transactional id settles what the old one left open, and the ledger
 * says where to resume. The position is also kept in a small file beside the queue ({@link
 * ShipPosition}). When Kafka cannot be reached the position stays, the local queue is the buffer,
 * and the outage is one line a minute ({@link OutageNotice}); nothing is lost. Excerpts that are
 * not events are skipped and counted. {@link #stop()} (from a signal) ends the loop.
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

  /**
   * How long a batch's transaction may stay open before the broker aborts it: how long a ship that
   * died in the middle of a batch holds back what comes after it for readers of committed records.
   */
  static final int TRANSACTION_TIMEOUT_MS = 10_000;

  private final Path queueDir;
  private final String bootstrap;
  private final String topic;
  private final String shipId;
  private final ShipLedger ledger;
  private final ShipPosition position;
  private final Clock clock;
  private final PrintWriter out;
  private final OutageNotice outage;
  private final ExcerptEvents events = new ExcerptEvents();
  private volatile boolean stopping;
  private volatile Thread loopThread;
  private long shipped;
  private long skipped;

  /** The index of the last excerpt committed in Kafka, or {@link ShipPosition#NONE}. */
  private long acked;

  /** Events shipped before this run (by earlier ones, as the ledger or the file says). */
  private long shippedBefore;

  /** A producer was connected once in this run: later moves of the ledger are this run's. */
  private boolean connectedOnce;

  /**
   * @param shipId the ship's identity in Kafka: its transactional id and its key in the ledger, one
   *     per queue shipped ({@link #defaultId})
   * @param clock the outage lines' time source
   * @param out start and stop lines
   * @param err the outage lines
   */
  public Shipper(
      Path queueDir,
      String bootstrap,
      String topic,
      String shipId,
      ShipPosition position,
      Clock clock,
      PrintWriter out,
      PrintWriter err) {
    this.queueDir = queueDir;
    this.bootstrap = bootstrap;
    this.topic = topic;
    this.shipId = shipId;
    this.ledger = new ShipLedger(bootstrap, topic);
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
   * The id of a ship that runs on this host ({@code HOSTNAME}, else the host's name) and ships the
   * queue in {@code queueDir}: distinct for every queue of a fleet, the same when the ship
   * restarts.
   */
  public static String defaultId(Path queueDir) {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        host = "localhost";
      }
    }
    return host + ":" + queueDir.toAbsolutePath().normalize();
  }

  /**
   * Runs until {@link #stop()}.
   *
   * @throws IllegalArgumentException naming the queue or the position file when either is not what
   *     it should be
   */
  public Totals run() throws IOException {
    loopThread = Thread.currentThread();
    acked = position.read();
    shippedBefore = position.shipped();
    shipped = shippedBefore;
    Backoff backoff = new Backoff();
    QueueSpills spills = new QueueSpills(queueDir, "ship");
    spills.importIfDue(System.nanoTime());
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
            if (spills.importIfDue(System.nanoTime()) == 0) {
              LockSupport.parkNanos(IDLE_PARK_NANOS);
            }
            continue;
          }
          try {
            if (producer == null) {
              long from = acked;
              producer = connect();
              if (acked != from) { // Kafka holds more than the file said: resume after it
                seek(tailer, acked);
                continue;
              }
            }
            commit(producer, batch, last);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            break;
          } catch (ExecutionException | TimeoutException | IOException | RuntimeException e) {
            // nothing of this batch counts as shipped: the position stays; a new producer settles
            // the transaction and the ledger says whether it was committed
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
    announceStopped(shippedBefore, acked);
    return new Totals(shipped - shippedBefore, skipped, acked);
  }

  /**
   * A producer with the ship's transactional id, which fences any earlier producer of this ship and
   * settles the transaction it left open; then the position committed in the ledger, when it is
   * past {@link #acked}, becomes the position (the outcome of the last batch was not known).
   */
  private Producer<String, String> connect()
      throws ExecutionException, InterruptedException, TimeoutException, IOException {
    try (Admin admin = Admin.create(KafkaClients.common(bootstrap, "vigil-ship-admin"))) {
      if (!ledger.ensure(admin, topic)) {
        throw new UnknownTopicOrPartitionException("topic " + topic + " does not exist");
      }
    }
    Producer<String, String> p =
        new KafkaProducer<>(
            KafkaClients.transactionalProducer(
                bootstrap, "vigil-ship", "vigil-ship-" + shipId, TRANSACTION_TIMEOUT_MS));
    try {
      p.initTransactions();
      ShipLedger.Committed committed = ledger.read(shipId);
      if (committed != null && committed.index() > acked) {
        out.println(
            Timestamps.format(clock.instant())
                + " ship resumes after excerpt "
                + Long.toHexString(committed.index())
                + ", the last one committed in "
                + ledger.topic());
        out.flush();
        acked = committed.index();
        shipped = committed.shipped();
        if (!connectedOnce) {
          shippedBefore = shipped; // shipped by the run before, which died before its file said so
        }
        position.write(acked, shipped);
      }
      connectedOnce = true;
      return p;
    } catch (IOException | RuntimeException e) {
      closeQuietly(p);
      throw e;
    }
  }

  /**
   * Sends a batch and the ledger's entry for its end {@code last} in one transaction, and commits
   * it; the first failure is thrown.
   */
  private void commit(
      Producer<String, String> producer, List<ProducerRecord<String, String>> batch, long last)
      throws ExecutionException {
    producer.beginTransaction();
    for (ProducerRecord<String, String> r : batch) {
      Future<RecordMetadata> ack = producer.send(r);
      if (ack.isDone()) {
        get(ack); // failed at once (no metadata within max.block.ms): the rest of the batch would
        // wait as long
      }
    }
    producer.send(ledger.entry(shipId, queueDir.toString(), last, shipped + batch.size()));
    producer.commitTransaction();
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
            + position.file()
            + " and topic "
            + ledger.topic()
            + ", ship id "
            + shipId);
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
        Bytes<?> bytes = dc.wire().bytes();
        events.start(bytes); // a batch's events go together: the position is an excerpt's
        while (true) {
          try {
            if (!events.next()) {
              break;
            }
            Event e = EventWire.read(events.event());
            batch.add(new ProducerRecord<>(topic, e.agent(), EventJson.write(e)));
          } catch (EventFormatException ex) {
            skipped++;
          }
        }
      }
    }
    return last;
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
