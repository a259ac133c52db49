package dev.vigil.bench;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * A trace of agents in conversation for the analyzer's figures (docs/BENCHMARKS.md): the labelled
 * corpus's generator ({@code demo-robin}'s {@code CorpusGenerator}: scripted conversations with the
 * shop agent and Robin, played in child JVMs under the real javaagent) run with a seed of its own
 * ({@value #SEED}; the corpus in {@code samples/corpus} is seed 18), then copied until it holds the
 * events asked for, each copy's sessions, turns and call ids renamed and the copies spread over
 * {@value #SPREAD_HOURS} hours, written into a queue as the agent's layout writes it. Unlike the
 * suite's generated tool calls, it has user messages and answers, which the conversation detectors
 * read word by word.
 */
final class ConversationTrace {
  /** The generator's seed. */
  static final long SEED = 7;

  static final int SPREAD_HOURS = 20;

  private static final long GENERATOR_MINUTES = 10;

  private ConversationTrace() {}

  /**
   * Runs the generator from {@code corpusJar} (the repository's root is the working directory) into
   * {@code work}; the trace's events, a JSONL file.
   */
  static Path generate(String java, Path corpusJar, Path work) throws Exception {
    Path out = work.resolve("conversation-corpus");
    Path log = work.resolve("conversation-corpus.log");
    Process p =
        new ProcessBuilder(
                java,
                "-cp",
                corpusJar.toString(),
                "dev.vigil.demo.corpus.CorpusGenerator",
                "--root",
                ".",
                "--out",
                out.toString(),
                "--work",
                work.resolve("conversation-corpus-work").toString(),
                "--seed",
                Long.toString(SEED))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(GENERATOR_MINUTES, TimeUnit.MINUTES)) {
      p.destroyForcibly().waitFor();
      throw new IllegalStateException(
          "the corpus generator ran over " + GENERATOR_MINUTES + " min");
    }
    Path events = out.resolve("events.jsonl");
    if (p.exitValue() != 0 || !Files.isRegularFile(events)) {
      throw new IllegalStateException(
          "the corpus generator exited " + p.exitValue() + " without events; see " + log);
    }
    return events;
  }

  /**
   * Writes {@code count} events copied from {@code events} into a new queue {@code
   * dir/queue-count}, the last copy ending an hour before {@code now}.
   */
  static Path queue(Path events, Path dir, int count, Instant now) throws IOException {
    List<Event> trace = new ArrayList<>();
    for (String line : Files.readAllLines(events, StandardCharsets.UTF_8)) {
      try {
        trace.add(EventJson.read(line, ZoneOffset.UTC).event());
      } catch (EventFormatException e) {
        throw new IllegalStateException("the generated trace holds a line that is not an event", e);
      }
    }
    if (trace.isEmpty()) {
      throw new IllegalStateException("the generated trace is empty: " + events);
    }
    Instant first = trace.get(0).ts();
    Instant last = first;
    for (Event e : trace) {
      first = e.ts().isBefore(first) ? e.ts() : first;
      last = e.ts().isAfter(last) ? e.ts() : last;
    }
    long spanNanos = Duration.between(first, last).toNanos() + 1;
    int copies = (count + trace.size() - 1) / trace.size();
    long sliceNanos = Duration.ofHours(SPREAD_HOURS).toNanos() / copies;
    double scale = Math.min(1.0, (double) sliceNanos / spanNanos);
    Instant start = now.minus(Duration.ofHours(SPREAD_HOURS + 1L));
    Path queue = dir.resolve("conversation-queue-" + count);
    try (ChronicleQueue q = EventQueues.openForWriting(queue);
        ExcerptAppender a = q.createAppender()) {
      int written = 0;
      for (int c = 0; c < copies && written < count; c++) {
        Instant base = start.plusNanos(c * sliceNanos);
        String suffix = "-c" + c;
        for (int i = 0; i < trace.size() && written < count; i++, written++) {
          Event e = trace.get(i);
          long offset = (long) (Duration.between(first, e.ts()).toNanos() * scale);
          EventWire.append(
              a,
              new Event(
                  base.plusNanos(offset),
                  e.kind(),
                  e.status(),
                  e.payload(),
                  e.agent(),
                  (long) written + 1,
                  e.pid(),
                  e.thread(),
                  renamed(e.turn(), suffix),
                  renamed(e.callId(), suffix),
                  renamed(e.session(), suffix)));
        }
      }
    }
    return queue;
  }

  private static String renamed(String id, String suffix) {
    return id == null ? null : id + suffix;
  }
}
