package dev.vigil.eval;

import dev.vigil.dialogue.SessionKey;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlLines;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An events file split into sessions (docs/EVAL.md): each event goes to its {@code session}, or to
 * its agent when it has none. Each line is kept as it was written (a naive timestamp stays naive
 * for the session's pass); lines that are not events are skipped and counted by reason, as a pass
 * counts them. The whole file is held in memory.
 */
final class SessionEvents {
  /** One session's lines and the span of their timestamps. */
  static final class Session {
    private final List<byte[]> lines = new ArrayList<>();
    private final List<Long> lineNumbers = new ArrayList<>();
    private Instant first;
    private Instant last;

    private void add(byte[] line, Instant ts, long lineNo) {
      lines.add(line);
      lineNumbers.add(lineNo);
      first = first == null || ts.isBefore(first) ? ts : first;
      last = last == null || ts.isAfter(last) ? ts : last;
    }

    /** How many events it has. */
    int size() {
      return lines.size();
    }

    /** Its earliest event's time. */
    Instant first() {
      return first;
    }

    /** Its latest event's time: the {@code now} of its pass. */
    Instant last() {
      return last;
    }

    /** Its lines, in the order of the file. */
    List<byte[]> lines() {
      return lines;
    }

    /** The line number in the file of each of its lines. */
    List<Long> lineNumbers() {
      return lineNumbers;
    }

    /** Its lines as one JSONL document, in the order of the file. */
    byte[] jsonl() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      for (byte[] line : lines) {
        out.write(line, 0, line.length);
        out.write('\n');
      }
      return out.toByteArray();
    }
  }

  private final Map<String, Session> sessions;
  private final IngestStats stats;

  private SessionEvents(Map<String, Session> sessions, IngestStats stats) {
    this.sessions = Collections.unmodifiableMap(sessions);
    this.stats = stats;
  }

  /**
   * Reads and splits an events file.
   *
   * @throws IllegalArgumentException naming the file when it is missing or unreadable
   */
  static SessionEvents read(Path file, ZoneId assumeZone) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException(
          "events file "
              + file
              + (Files.exists(file) ? " is not a readable file" : " does not exist"));
    }
    Map<String, Session> sessions = new LinkedHashMap<>();
    IngestStats stats = new IngestStats();
    try (InputStream in = Files.newInputStream(file)) {
      JsonlLines.read(
          in,
          (buf, from, to, lineNo) -> {
            try {
              EventJson.Parsed parsed = EventJson.read(buf, from, to - from, assumeZone);
              stats.read(parsed.naiveTs());
              sessions
                  .computeIfAbsent(key(parsed.event()), k -> new Session())
                  .add(Arrays.copyOfRange(buf, from, to), parsed.event().ts(), lineNo);
            } catch (EventFormatException e) {
              stats.skip(e.defect().code());
            }
          });
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "events file " + file + " cannot be read: " + e.getMessage(), e);
    }
    return new SessionEvents(sessions, stats);
  }

  /** The session an event belongs to ({@link SessionKey#of}). */
  static String key(Event e) {
    return SessionKey.of(e);
  }

  /** The sessions, first seen first. */
  Map<String, Session> sessions() {
    return sessions;
  }

  /** Events read and lines skipped. */
  IngestStats stats() {
    return stats;
  }
}
