package dev.vigil.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the event codec on a real Chronicle queue on disk: encode + append one typical tool-call
 * event, and read + decode one. The event is the example of docs/DESIGN.md#the-event (about 300
 * bytes of JSON).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
      "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
      "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
      "--add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
      "--add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "-Dchronicle.analytics.disable=true"
    })
@State(Scope.Thread)
public class EventCodecBenchmark {
  private static final int PREFILLED = 200_000;

  private Path dir;
  private ChronicleQueue queue;
  private ExcerptAppender appender;
  private ExcerptTailer tailer;
  private Event event;
  private long seq;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    dir = Files.createTempDirectory("vigil-bench-codec");
    queue = EventQueues.openForWriting(dir);
    appender = queue.createAppender();
    ObjectNode payload = EventJson.mapper().createObjectNode();
    payload.put("tool", "setReminder");
    payload.putObject("args").put("when", "in 30 minutes").put("task", "tea");
    payload.put("result", "Reminder set");
    payload.put("duration_ms", 1.84);
    payload.put("class", "demo.robin.RobinTools");
    payload.put("method", "setReminder");
    event =
        new Event(
            Instant.parse("2026-11-22T10:15:30.123456Z"),
            "tool.set_reminder",
            "ok",
            payload,
            "robin",
            17L,
            4242L,
            "main",
            "9f2c",
            "call_3",
            "s-1");
    for (int i = 0; i < PREFILLED; i++) {
      EventWire.append(appender, event);
    }
    tailer = queue.createTailer();
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    queue.close();
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Encode one event (payload to Smile, envelope to binary) and append it as one excerpt. */
  @Benchmark
  public long encodeAndAppend() {
    EventWire.append(appender, event.withOrigin("robin", ++seq, 4242L, "main"));
    return seq;
  }

  /**
   * Read one excerpt and decode it into an {@link Event}; wraps to the start at the end of the
   * queue.
   */
  @Benchmark
  public Event readAndDecode() throws EventFormatException {
    Event e = EventWire.next(tailer);
    if (e == null) {
      tailer.toStart();
      e = EventWire.next(tailer);
    }
    return e;
  }

  /** For comparison: the same event written as a JSON line. */
  @Benchmark
  public String encodeJson() {
    return EventJson.write(event);
  }
}
