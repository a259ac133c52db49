package dev.vigil.ingest;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;

/**
 * Reads events from a JSONL file, or from stdin when the path is {@code -} (SPEC sections 2 and 4.1). Blank lines
 * are passed over; lines that are not JSON, lack a required field or have an unreadable {@code ts} are skipped and
 * counted by reason; naive timestamps are read in the assumed zone and counted.
 */
public final class JsonlSource {
  /** The path that means standard input. */
  public static final String STDIN = "-";

  private final String path;
  private final ZoneId assumeZone;
  private final InputStream stdin;

  /**
   * @param path       a file, or {@code -}
   * @param assumeZone the zone naive timestamps are read in
   * @param stdin      what {@code -} reads
   */
  public JsonlSource(String path, ZoneId assumeZone, InputStream stdin) {
    this.path = path;
    this.assumeZone = assumeZone;
    this.stdin = stdin;
  }

  /**
   * Checks that the input can be read.
   *
   * @throws IllegalArgumentException naming the path and what is wrong
   */
  public void check() {
    if (STDIN.equals(path)) {
      return;
    }
    Path p = Path.of(path);
    if (!Files.exists(p)) {
      throw new IllegalArgumentException("events file " + path + " does not exist");
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new IllegalArgumentException("events file " + path + " is not a readable file");
    }
  }

  /** Reads every line, passing events to the sink. */
  public IngestStats read(IngestSink sink) throws IOException {
    check();
    IngestStats stats = new IngestStats();
    InputStream in = STDIN.equals(path) ? stdin : Files.newInputStream(Path.of(path));
    var decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE);
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, decoder), 1 << 16)) {
      long lineNo = 0;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        try {
          EventJson.Parsed parsed = EventJson.read(line, assumeZone);
          stats.read(parsed.naiveTs());
          Event event = parsed.event();
          sink.accept(event, () -> EventIdentity.ofContent(event), lineNo, parsed.naiveTs());
        } catch (EventFormatException e) {
          stats.skip(e.defect().code());
        }
      }
    } catch (CharacterCodingException e) {
      throw new IOException(path + " is not UTF-8", e);
    }
    return stats;
  }

  /** The path as given. */
  public String path() {
    return path;
  }
}
