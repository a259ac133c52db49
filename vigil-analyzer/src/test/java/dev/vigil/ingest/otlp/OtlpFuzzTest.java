package dev.vigil.ingest.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes OTLP bodies (docs/CONTRIBUTING.md#fuzzing), as the receiver and {@code --otlp} read them:
 * a body is a trace export request or is refused with {@link OtlpFormatException} (JSON) or {@link
 * InvalidProtocolBufferException} (protobuf), never anything else; the spans of one that is read
 * map to events that each write and read back as the same event, whatever the spans hold. Without
 * {@code JAZZER_FUZZ} this replays the inputs under {@code OtlpFuzzTestInputs/<method>/}; the
 * protobuf target's seeds are not kept as binary files but made from the JSON ones ({@link
 * #protobufSeedsMadeFromTheJsonOnes}), and a campaign starts from an empty input.
 */
class OtlpFuzzTest {
  /** The JSON seeds, encoded as the protobuf bodies an exporter sends, go through its target. */
  @Test
  void protobufSeedsMadeFromTheJsonOnes() throws Exception {
    Path dir = Path.of("src/test/resources/dev/vigil/ingest/otlp/OtlpFuzzTestInputs/jsonBody");
    int valid = 0;
    try (var files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        byte[] json = Files.readAllBytes(f);
        try {
          byte[] body = OtlpJson.read(json, 0, json.length).toByteArray();
          protobufBody(body);
          protobufBody(Arrays.copyOf(body, body.length / 2));
          valid++;
        } catch (OtlpFormatException notASeed) {
          // an invalid JSON seed has no protobuf form
        }
      }
    }
    assertEquals(2, valid, "the valid seeds of " + dir);
  }

  @FuzzTest
  void jsonBody(byte[] body) {
    ExportTraceServiceRequest request;
    try {
      request = OtlpJson.read(body, 0, body.length);
    } catch (OtlpFormatException e) {
      assertFalse(e.reason().isEmpty());
      return;
    }
    mapsToEvents(request);
  }

  @FuzzTest
  void protobufBody(byte[] body) {
    ExportTraceServiceRequest request;
    try {
      request = ExportTraceServiceRequest.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      return;
    }
    mapsToEvents(request);
  }

  private static void mapsToEvents(ExportTraceServiceRequest request) {
    Map<String, List<TraceSpan>> traces = new LinkedHashMap<>();
    for (TraceSpan s : TraceSpans.of(request)) {
      traces.computeIfAbsent(s.traceId(), k -> new ArrayList<>()).add(s);
    }
    List<String> skipped = new ArrayList<>();
    for (List<TraceSpan> trace : traces.values()) {
      for (Event e : Turns.of(trace, skipped::add)) {
        assertNotNull(e.kind());
        String line = EventJson.write(e);
        try {
          assertEquals(line, EventJson.write(EventJson.read(line, ZoneOffset.UTC).event()));
        } catch (dev.vigil.observe.EventFormatException ex) {
          throw new AssertionError("an event mapped from a span does not read back: " + line, ex);
        }
      }
    }
    skipped.forEach(reason -> assertFalse(reason.isEmpty()));
  }
}
