package dev.vigil.bench;

import dev.vigil.observe.CallPayload;
import dev.vigil.observe.EventEncoder;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.SmileOut;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.bytes.Bytes;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the agent's writer thread spends to put one tool call's event into a batch, in memory (no
 * queue): encoding it and writing it whole, or as its differences from the event before it in the
 * batch (docs/DESIGN.md#the-queue). The calls are those of {@code BackToBackApp}'s fresh shape: a
 * question built per call, a small record, a record of three fields back.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(value = 2)
@State(Scope.Thread)
public class BatchEncodeBenchmark {
  private static final String[] CITIES = {"Paris", "Lyon", "Nantes", "Lille"};

  /** Whether the events after a batch's first are written as their differences. */
  @Param({"false", "true"})
  public boolean differences;

  private final EventEncoder encoder = new EventEncoder();
  private final String[] questions = new String[1024];
  private final String[] summaries = new String[1024];
  private final byte[] classAndMethod = classAndMethod();
  private Bytes<?> batch;
  private long seq;
  private long bytesWritten;

  /** The class and method as the agent writes them, once for a call site. */
  private static byte[] classAndMethod() {
    byte[] c = SmileOut.stringBytes("dev.vigil.bench.BackToBackApp");
    byte[] m = SmileOut.stringBytes("forecast");
    byte[] both = Arrays.copyOf(c, c.length + m.length);
    System.arraycopy(m, 0, both, c.length, m.length);
    return both;
  }

  @Setup
  public void setUp() {
    for (int i = 0; i < questions.length; i++) {
      String city = CITIES[i % CITIES.length];
      questions[i] = "weather in " + city + " on day " + i;
      summaries[i] = "sunny in " + city + " for " + (5 + i % 4) + " days";
    }
    batch = Bytes.allocateElasticDirect(64 * 1024);
  }

  @TearDown
  public void tearDown() {
    System.out.printf("%n%.1f bytes an event%n", (double) bytesWritten / Math.max(1, seq));
    batch.releaseLast();
  }

  /** One event into the batch; a new batch every 256 events, as the writer's. */
  @Benchmark
  public long encodeIntoBatch() {
    return encode(seq++);
  }

  private long encode(long n) {
    int i = (int) (n & 1023);
    boolean first = (n & 255) == 0;
    if (first) {
      bytesWritten += batch.writePosition();
      batch.clear();
      ExcerptEvents.writeBatchStart(batch);
    }
    String city = CITIES[i & 3];
    SmileOut p = encoder.begin().callPayload(CallPayload.ARGS | CallPayload.RESULT);
    p.startObject();
    p.name("question");
    p.string(questions[i]);
    p.name("query");
    p.startObject();
    p.name("city");
    p.string(city);
    p.name("days");
    p.number(5 + (i & 3));
    p.endObject();
    p.endObject();
    p.startObject();
    p.name("city");
    p.string(city);
    p.name("high");
    p.number(15);
    p.name("summary");
    p.string(summaries[i]);
    p.endObject();
    p.number(2L);
    encoder.constant(classAndMethod);
    encoder.head(
        1_796_000_000L + (n >> 20),
        (int) (n & 0xFFFFF) * 900,
        null,
        "ok",
        "BackToBackApp",
        4242,
        "main",
        null,
        null,
        null);
    long slot = ExcerptEvents.beginEvent(batch);
    boolean differs = encoder.writeBatched(batch, n + 1, first || !differences);
    ExcerptEvents.endEvent(batch, slot, differs, 0);
    return batch.writePosition();
  }
}
