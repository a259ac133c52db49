package dev.vigil.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.EmoBank;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.SpillImport;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * What the soak checks afterwards, reading the queue and the bank's files directly (never through
 * the code under test).
 *
 * <p>The queue: {@code seq} is given per process ({@code EventLog} in the agent holds one counter,
 * starting at 0, taken under the process's append lock and incremented before each excerpt is
 * written), and {@code pid} names the process. So each process's events, read in queue order, must
 * carry exactly {@code 1, 2, 3, ..., n}: a missing number is a lost event, a repeated or smaller
 * one a duplicate or a reordering. What a killed process still held in its hand-off never reached
 * the queue and has no {@code seq} in it, so a kill shows as a shorter run, never as a gap.
 *
 * <p>The bank: an excerpt's identity is {@link EventIdentity#ofQueueIndex} of the queue's absolute
 * path and the excerpt's index (as the tail deposits it); {@code checkpoint.json} names the
 * identity file {@code seen-N.bin} and how many of its 8-byte identities are committed. Each queue
 * event's identity must be among them exactly once; the identities that are no queue excerpt's are
 * the detectors' derived events.
 */
final class SoakChecks {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private SoakChecks() {}

  /** One process's run of events in the queue. */
  static final class Run {
    long events;
    long lastSeq;
    long firstSeq = -1;
    long gaps;
    long duplicates;
  }

  /**
   * The queue read once: per process, and against the bank's identities.
   *
   * @param events events in the queue
   * @param lastIndex the index of the last excerpt
   * @param notEvents excerpts that were not Vigil events
   * @param perPid each process's run
   * @param perKind events per kind
   * @param problems the first problems found, described
   * @param inBank queue events whose identity the bank holds
   * @param missing queue events whose identity it does not
   * @param bankIdentities identities committed in the bank
   * @param bankDuplicates identities committed twice
   */
  record Result(
      long events,
      long lastIndex,
      long notEvents,
      Map<Long, Run> perPid,
      Map<String, Long> perKind,
      List<String> problems,
      long inBank,
      long missing,
      long bankIdentities,
      long bankDuplicates) {
    long gaps() {
      return perPid.values().stream().mapToLong(r -> r.gaps).sum();
    }

    long seqDuplicates() {
      return perPid.values().stream().mapToLong(r -> r.duplicates).sum();
    }

    long derived() {
      return bankIdentities - bankDuplicates - inBank;
    }
  }

  /**
   * The index of the queue's last excerpt that a reader finds, -1 when empty. Read by walking the
   * queue, as {@code watch} does: after agents were killed while they appended, Chronicle's own
   * {@code lastIndex()} was once found one short of the last excerpt a tailer reads (and that
   * {@code watch} committed), so that waiting for it never ended. Spill files of agents that ended
   * before they opened the queue are imported first, so that nothing arrives after it.
   */
  static long lastIndex(Path queue) {
    SpillImport.importPending(queue);
    long last = -1;
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer tailer = q.createTailer();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return last;
          }
          last = dc.index();
        }
      }
    }
  }

  /** Where {@code bank}'s last commit left the reading of {@code queue}: -1 before any. */
  static long committedPosition(Path bank, Path queue) {
    Path cp = bank.resolve(EmoBank.CHECKPOINT);
    if (!Files.exists(cp)) {
      return -1;
    }
    try {
      return MAPPER
          .readTree(cp.toFile())
          .path("queues")
          .path(queue.toAbsolutePath().normalize().toString())
          .asLong(-1);
    } catch (IOException e) {
      return -1; // replaced while read
    }
  }

  /** Reads the queue and the bank and compares them. */
  static Result check(Path queue, Path bank) throws IOException {
    long[] seen = committedIdentities(bank);
    Arrays.sort(seen);
    long bankDuplicates = 0;
    for (int i = 1; i < seen.length; i++) {
      if (seen[i] == seen[i - 1]) {
        bankDuplicates++;
      }
    }
    String key = queue.toAbsolutePath().normalize().toString();
    Map<Long, Run> perPid = new TreeMap<>();
    Map<String, Long> perKind = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    long events = 0;
    long notEvents = 0;
    long inBank = 0;
    long missing = 0;
    long last = -1;
    ExcerptEvents excerptEvents = new ExcerptEvents();
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer tailer = q.createTailer();
      while (true) {
        List<Event> read = new ArrayList<>();
        long index;
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          index = dc.index();
          last = index;
          Bytes<?> bytes = dc.wire().bytes();
          excerptEvents.start(bytes);
          while (true) {
            try {
              if (!excerptEvents.next()) {
                break;
              }
              read.add(EventWire.read(excerptEvents.event()));
            } catch (EventFormatException ex) {
              notEvents++;
              problem(problems, "excerpt " + Long.toHexString(index) + " is not an event: " + ex);
              read.add(null);
            }
          }
        }
        for (int k = 0; k < read.size(); k++) {
          Event e = read.get(k);
          if (e == null) {
            continue;
          }
          events++;
          perKind.merge(e.kind(), 1L, Long::sum);
          sequence(perPid.computeIfAbsent(e.pid(), p -> new Run()), e, index, problems);
          if (Appraiser.isContext(e)) {
            continue; // conversation context: never deposited
          }
          if (Arrays.binarySearch(seen, EventIdentity.ofQueueIndex(key, index, k)) >= 0) {
            inBank++;
          } else {
            missing++;
            problem(
                problems,
                "event " + k + " of excerpt " + Long.toHexString(index) + " is not in the bank");
          }
        }
      }
    }
    return new Result(
        events,
        last,
        notEvents,
        perPid,
        perKind,
        problems,
        inBank,
        missing,
        seen.length,
        bankDuplicates);
  }

  private static void sequence(Run run, Event e, long index, List<String> problems) {
    long seq = e.seq() == null ? -1 : e.seq();
    run.events++;
    if (run.firstSeq < 0) {
      run.firstSeq = seq;
      if (seq != 1) {
        run.gaps++;
        problem(problems, "pid " + e.pid() + " starts at seq " + seq + ", not 1");
      }
    } else if (seq == run.lastSeq + 1) {
      // the next one
    } else if (seq > run.lastSeq + 1) {
      run.gaps++;
      problem(
          problems,
          "pid "
              + e.pid()
              + ": seq "
              + run.lastSeq
              + " then "
              + seq
              + " at "
              + Long.toHexString(index));
    } else {
      run.duplicates++;
      problem(
          problems,
          "pid "
              + e.pid()
              + ": seq "
              + run.lastSeq
              + " then "
              + seq
              + " at "
              + Long.toHexString(index));
    }
    run.lastSeq = Math.max(run.lastSeq, seq);
  }

  private static void problem(List<String> problems, String what) {
    if (problems.size() < 20) {
      problems.add(what);
    }
  }

  /** The identities the bank's last commit counts, in file order. */
  static long[] committedIdentities(Path bank) throws IOException {
    JsonNode cp = MAPPER.readTree(bank.resolve(EmoBank.CHECKPOINT).toFile());
    String file = cp.path("seen").asText(null);
    if (file == null) {
      return new long[0];
    }
    Path path = bank.resolve(file);
    long count = cp.path("events_deposited").asLong(-1);
    if (count < 0) {
      count = Files.size(path) / Long.BYTES;
    }
    long[] ids = new long[Math.toIntExact(count)];
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(path), 1 << 16))) {
      for (int i = 0; i < ids.length; i++) {
        ids[i] = in.readLong();
      }
    }
    return ids;
  }
}
