package dev.vigil.ingest.otlp;

import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlLines;
import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An OTLP JSON file (docs/OPENTELEMETRY.md#traces-in), one export request per line as the
 * collector's file exporter writes it, turned into Vigil's JSONL events: what {@code run}, {@code
 * eval} and {@code fit} read with {@code --otlp}. Lines that are not OTLP, and spans that fit
 * neither convention, are counted and skipped by reason; a span sent twice (same trace and span id)
 * is read once. The file's spans are held in memory while its traces are assembled, since a trace's
 * spans may lie on many lines.
 */
public final class OtlpFile {
  /** Skip reason of a span whose trace and span id were read before. */
  public static final String DUPLICATE = "otlp_span_duplicate";

  private OtlpFile() {}

  /**
   * What a conversion read and wrote.
   *
   * @param skipped lines and spans skipped, by reason
   * @param spans spans read
   * @param events events written
   */
  public record Converted(IngestStats skipped, long spans, long events) {}

  /**
   * Checks that the file can be read.
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  public static void check(Path otlp) {
    if (!Files.exists(otlp)) {
      throw new IllegalArgumentException("OTLP file " + otlp + " does not exist");
    }
    if (!Files.isRegularFile(otlp) || !Files.isReadable(otlp)) {
      throw new IllegalArgumentException("OTLP file " + otlp + " is not a readable file");
    }
  }

  /**
   * Reads {@code otlp} and writes its events to {@code jsonl} (owner-only, replaced if present),
   * ordered by {@code ts}, each trace's events in turn order where they tie.
   */
  public static Converted toJsonl(Path otlp, Path jsonl) throws IOException {
    check(otlp);
    IngestStats skipped = new IngestStats();
    Map<String, List<TraceSpan>> traces = new LinkedHashMap<>();
    Set<String> seen = new HashSet<>();
    long[] spans = {0};
    try (InputStream in = Files.newInputStream(otlp)) {
      JsonlLines.read(
          in,
          (buf, from, to, lineNo) -> {
            ExportTraceServiceRequest request;
            try {
              request = OtlpJson.read(buf, from, to - from);
            } catch (OtlpFormatException e) {
              skipped.skip(e.reason());
              return;
            }
            for (TraceSpan s : TraceSpans.of(request)) {
              spans[0]++;
              if (seen.add(s.traceId() + '/' + s.spanId())) {
                traces.computeIfAbsent(s.traceId(), k -> new ArrayList<>()).add(s);
              } else {
                skipped.skip(DUPLICATE);
              }
            }
          });
    }
    List<Event> events = new ArrayList<>();
    for (List<TraceSpan> trace : traces.values()) {
      events.addAll(Turns.of(trace, skipped::skip));
    }
    events.sort(Comparator.comparing(Event::ts)); // stable: a turn's order holds where ts tie
    write(events, jsonl);
    return new Converted(skipped, spans[0], events.size());
  }

  private static void write(List<Event> events, Path jsonl) throws IOException {
    Path dir = jsonl.toAbsolutePath().getParent();
    OwnerOnly.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, ".otlp-events-", ".tmp");
    try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
      for (Event e : events) {
        EventJson.write(e, w);
        w.write('\n');
      }
    }
    Files.move(tmp, jsonl, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
