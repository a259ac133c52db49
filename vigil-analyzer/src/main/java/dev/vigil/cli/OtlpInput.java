package dev.vigil.cli;

import dev.vigil.api.Analyzer;
import dev.vigil.ingest.otlp.OtlpFile;
import dev.vigil.io.Notice;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;

/**
 * {@code eval} and {@code fit} with {@code --otlp FILE} (docs/OPENTELEMETRY.md#traces-in): the
 * file's spans become events in {@code otlp-events.jsonl} of the output directory, which the
 * command then reads as it reads {@code --events}; what was skipped is said in one line.
 */
final class OtlpInput {
  private OtlpInput() {}

  /**
   * Maps {@code otlp} to events in {@code out}.
   *
   * @return the JSONL file of the events
   * @throws BadInputException naming the file when it is missing or unreadable
   */
  static Path events(Path otlp, Path out, String command, Clock clock, PrintWriter err)
      throws IOException {
    Path events = out.resolve(Analyzer.OTLP_EVENTS);
    OtlpFile.Converted c;
    try {
      c = OtlpFile.toJsonl(otlp, events);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    err.println(
        Notice.line(
            clock.instant(),
            command,
            Notice.Level.INFO,
            "OTLP file "
                + otlp
                + ": "
                + c.spans()
                + " spans, "
                + c.events()
                + " events in "
                + events
                + (c.skipped().skipped().isEmpty() ? "" : ", skipped " + c.skipped().skipped())));
    err.flush();
    return events;
  }
}
