package dev.vigil.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.PendingEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one JSONL line costs the analyzer's reader, against the floor of the JSON library under it:
 * Jackson's streaming parser created over the line and walked token by token ({@code
 * tokenizeOnly}), Vigil's check of the line with the payload kept as bytes ({@code readPending},
 * what {@code run} does for every line), and the whole event built ({@code readWhole}, what it does
 * for the events it uses). The line is the example of docs/DESIGN.md#the-event (300 bytes).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class JsonlLineBenchmark {
  private static final JsonFactory JSON = new JsonFactory();
  private final byte[] line =
      ("{\"ts\":\"2026-11-22T10:15:30.123456Z\",\"kind\":\"tool.set_reminder\","
              + "\"status\":\"ok\",\"payload\":{\"tool\":\"setReminder\",\"args\":{\"when\":\"in 30 minutes\","
              + "\"task\":\"tea\"},\"result\":\"Reminder set\",\"duration_ms\":1.84,\"class\":\"demo.robin.RobinTools\","
              + "\"method\":\"setReminder\"},\"agent\":\"robin\",\"seq\":17,\"pid\":4242,\"thread\":\"main\","
              + "\"turn\":\"9f2c\",\"call_id\":\"call_3\"}")
          .getBytes(StandardCharsets.UTF_8);

  /** The floor: a parser over the line, every token read, nothing decoded. */
  @Benchmark
  public int tokenizeOnly() throws IOException {
    int tokens = 0;
    try (JsonParser p = JSON.createParser(line, 0, line.length)) {
      for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
        tokens++;
      }
    }
    return tokens;
  }

  /** The line checked in full, its payload kept as bytes. */
  @Benchmark
  public PendingEvent readPending() throws EventFormatException {
    return EventJson.readPending(line, 0, line.length, ZoneOffset.UTC);
  }

  /** The event built whole, payload tree included. */
  @Benchmark
  public Object readWhole() throws EventFormatException {
    return EventJson.read(line, 0, line.length, ZoneOffset.UTC).event();
  }
}
