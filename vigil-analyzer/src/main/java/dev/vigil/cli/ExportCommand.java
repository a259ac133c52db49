package dev.vigil.cli;

import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.QueueSource;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.Notice;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.Timestamps;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code export}: writes every event of a queue as JSONL (docs/DESIGN.md#the-event), to a file or
 * stdout.
 */
@Command(
    name = "export",
    header = "Writes the events of a Vigil queue as JSON lines.",
    mixinStandardHelpOptions = true,
    description = {
      "Writes the events of a Vigil queue as JSON lines, one event per line "
          + "(the event format: docs/DESIGN.md#the-event).",
      "The queue is opened read-only. Excerpts that are not Vigil events are skipped and counted on stderr."
    })
final class ExportCommand extends VigilCommand {

  @Option(
      names = "--queue",
      required = true,
      paramLabel = "DIR",
      description = "The Chronicle queue directory.")
  Path queue;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description =
          "Write to FILE (replaced atomically when the export is complete) instead of stdout.")
  Path out;

  @Option(
      names = "--from",
      paramLabel = "ISO",
      description =
          "Only events with ts at or after this instant (an offset-less time is read as UTC).")
  String from;

  @Override
  public Integer call() throws IOException {
    Instant fromInstant = parseFrom();
    QueueSource source;
    try {
      source = new QueueSource(queue, "export");
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    IngestStats stats;
    if (out == null) {
      stats = export(source, fromInstant, out());
      out().flush();
    } else {
      stats = exportToFile(source, fromInstant);
    }
    long count = stats.eventsRead();
    Map<String, Long> skipped = stats.skipped();
    if (out != null || !skipped.isEmpty()) {
      err()
          .println(
              Notice.line(
                  Instant.now(),
                  "export",
                  skipped.isEmpty() ? Notice.Level.INFO : Notice.Level.WARN,
                  "exported "
                      + count
                      + " events"
                      + (out != null ? " to " + out : "")
                      + (skipped.isEmpty() ? "" : "; skipped excerpts " + skipped)));
    }
    return EXIT_OK;
  }

  private Instant parseFrom() {
    if (from == null) {
      return null;
    }
    try {
      return Timestamps.parse(from, ZoneOffset.UTC).instant();
    } catch (DateTimeException e) {
      throw new BadInputException("--from \"" + from + "\" is not an ISO-8601 timestamp");
    }
  }

  private IngestStats exportToFile(QueueSource source, Instant fromInstant) throws IOException {
    Path target = out.toAbsolutePath();
    Path parent = target.getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new BadInputException("--out " + out + ": directory " + parent + " does not exist");
    }
    Path partial = target.resolveSibling(target.getFileName() + ".partial");
    IngestStats stats;
    try (Writer w = Files.newBufferedWriter(partial, StandardCharsets.UTF_8)) {
      stats = export(source, fromInstant, w);
    } catch (RuntimeException | IOException e) {
      Files.deleteIfExists(partial);
      throw e;
    }
    AtomicWrite.move(partial, target);
    return stats;
  }

  /**
   * Writes every event of the queue from {@code fromInstant} (null: all) as JSON lines; {@code fit}
   * uses it too.
   */
  static IngestStats export(QueueSource source, Instant fromInstant, Writer w) {
    Writer buffered = w instanceof BufferedWriter ? w : new BufferedWriter(w, 1 << 16);
    IngestStats stats =
        source.read(
            -1,
            Instant.MAX,
            fromInstant,
            (event, identity, ref) -> {
              try {
                EventJson.write(event.event(), buffered);
                buffered.write('\n');
              } catch (IOException e) {
                throw new UncheckedIOException(e);
              }
            });
    try {
      buffered.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return stats;
  }
}
