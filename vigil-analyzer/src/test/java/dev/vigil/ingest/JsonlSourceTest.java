package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.observe.Event;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class JsonlSourceTest {
  /** The size from which a file is read in parts (for tests of other packages). */
  public static final long SPLIT_BYTES = ScanParts.SPLIT_BYTES;

  private record Seen(Event event, long line, long identity) {}

  private static List<Seen> read(byte[] input, Map<String, Long> skipped) throws Exception {
    List<Seen> seen = new ArrayList<>();
    IngestStats stats =
        new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
            .read(
                (event, identity, ref) ->
                    seen.add(new Seen(event.event(), ref, identity.getAsLong())));
    skipped.putAll(stats.skipped());
    assertEquals(seen.size(), stats.eventsRead());
    return seen;
  }

  private static String line(int i, String payload) {
    return "{\"ts\":\"2026-11-22T10:00:0"
        + (i % 10)
        + "Z\",\"kind\":\"tool.t\",\"status\":\"ok\",\"payload\":"
        + payload
        + "}";
  }

  @Test
  void splitsOnLfAndCrLfSkipsBlankLinesAndReadsALastLineWithoutNewline() throws Exception {
    String text = line(1, "{}") + "\r\n\r\n   \n" + line(2, "{\"a\":1}") + "\n\t\n" + line(3, "{}");
    Map<String, Long> skipped = new java.util.TreeMap<>();
    List<Seen> seen = read(text.getBytes(StandardCharsets.UTF_8), skipped);
    assertEquals(List.of(1L, 4L, 6L), seen.stream().map(Seen::line).toList());
    assertEquals(1, seen.get(1).event().payload().get("a").asInt());
    assertEquals(Map.of(), skipped);
  }

  @Test
  void readsLinesLongerThanItsBuffer() throws Exception {
    String big = "x".repeat(200_000);
    String text = line(1, "{\"big\":\"" + big + "\"}") + "\n" + line(2, "{}") + "\n";
    List<Seen> seen = read(text.getBytes(StandardCharsets.UTF_8), new java.util.TreeMap<>());
    assertEquals(2, seen.size());
    assertEquals(big, seen.get(0).event().payload().get("big").asText());
    assertEquals(2L, seen.get(1).line());
  }

  @Test
  void aLineThatIsNotUtf8IsNotJsonAndTheNextLineIsRead() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(line(1, "{\"name\":\"Caf").getBytes(StandardCharsets.UTF_8));
    out.write(0xE9); // Latin-1 é
    out.write("\"}}\n".getBytes(StandardCharsets.UTF_8));
    out.write((line(2, "{\"name\":\"Café\"}") + "\n").getBytes(StandardCharsets.UTF_8));
    Map<String, Long> skipped = new java.util.TreeMap<>();
    List<Seen> seen = read(out.toByteArray(), skipped);
    assertEquals(Map.of("not_json", 1L), skipped);
    assertEquals("Café", seen.get(0).event().payload().get("name").asText());
    assertEquals(2L, seen.get(0).line());
  }

  @Test
  void theSameEventHasTheSameIdentityOnAnyLine() throws Exception {
    String text =
        line(1, "{\"a\":[1,2]}")
            + "\n"
            + line(1, "{\"a\":[1,2]}")
            + "\n"
            + line(1, "{\"a\":[2,1]}")
            + "\n";
    List<Seen> seen = read(text.getBytes(StandardCharsets.UTF_8), new java.util.TreeMap<>());
    assertEquals(seen.get(0).identity(), seen.get(1).identity());
    org.junit.jupiter.api.Assertions.assertNotEquals(
        seen.get(0).identity(), seen.get(2).identity());
  }

  /**
   * Lines of every kind, more than a read-ahead hand-over holds: events, blank lines, lines that
   * are not events.
   */
  private static byte[] mixed() {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < 3 * ReadAhead.BATCH + 17; i++) {
      switch (i % 7) {
        case 0 -> text.append("not json");
        case 1 -> text.append("{\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}}");
        case 2 -> text.append("   ");
        case 3 -> text.append(line(i, "{\"a\":" + i + "}").replace("Z\"", "\"")); // naive ts
        case 4 -> text.append(line(i, "{\"a\":[" + i + "]}").replace("\"ok\"", "1"));
        default -> text.append(line(i, "{\"n\":" + i + ",\"s\":\"x\"}"));
      }
      text.append(i % 2 == 0 ? "\n" : "\r\n");
    }
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readingAheadYieldsTheSameEventsLinesIdentitiesAndCountsAsReading() throws Exception {
    byte[] input = mixed();
    for (long firstLine : new long[] {1, 2, 300, 10_000}) {
      List<Seen> plain = new ArrayList<>();
      IngestStats plainStats =
          new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
              .read(
                  (event, identity, ref) ->
                      plain.add(new Seen(event.event(), ref, identity.getAsLong())),
                  firstLine);
      List<Seen> ahead = new ArrayList<>();
      IngestStats aheadStats =
          new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
              .readAhead(
                  (event, identity, ref) ->
                      ahead.add(new Seen(event.event(), ref, identity.getAsLong())),
                  firstLine);
      assertEquals(plain, ahead, "from line " + firstLine);
      assertEquals(plainStats.skipped(), aheadStats.skipped());
      assertEquals(plainStats.eventsRead(), aheadStats.eventsRead());
      assertEquals(plainStats.naiveTimestamps(), aheadStats.naiveTimestamps());
    }
    assertEquals(
        3,
        new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
            .read((e, id, ref) -> {})
            .skipped()
            .size());
  }

  @Test
  void scanningCountsAsReadingAndSeesEachEventsTimeAndAgent() throws Exception {
    byte[] input = mixed();
    List<String> read = new ArrayList<>();
    IngestStats readStats =
        new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
            .read((event, identity, ref) -> read.add(event.ts() + " " + event.agent() + " " + ref));
    List<String> scanned = new ArrayList<>();
    IngestStats scanStats =
        new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
            .scan((header, line) -> scanned.add(header.ts() + " " + header.agent() + " " + line));
    assertEquals(read, scanned);
    assertEquals(readStats.skipped(), scanStats.skipped());
    assertEquals(readStats.eventsRead(), scanStats.eventsRead());
    assertEquals(readStats.naiveTimestamps(), scanStats.naiveTimestamps());
  }

  @Test
  void aSinkThatFailsStopsTheReadAheadThread() {
    byte[] input = mixed();
    int[] taken = {0};
    IllegalStateException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class,
            () ->
                new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
                    .readAhead(
                        (event, identity, ref) -> {
                          if (++taken[0] == 3) {
                            throw new IllegalStateException("full");
                          }
                        },
                        1));
    assertEquals("full", e.getMessage());
    assertEquals(
        List.of(),
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("vigil-read-ahead") && t.isAlive())
            .toList());
  }

  @Test
  void aStreamThatFailsFailsTheReadAhead() {
    java.io.InputStream broken =
        new java.io.SequenceInputStream(
            new ByteArrayInputStream(mixed()),
            new java.io.InputStream() {
              @Override
              public int read() throws java.io.IOException {
                throw new java.io.IOException("disk gone");
              }

              @Override
              public int read(byte[] b, int off, int len) throws java.io.IOException {
                throw new java.io.IOException("disk gone");
              }
            });
    List<Long> lines = new ArrayList<>();
    java.io.IOException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.io.IOException.class,
            () ->
                new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, broken)
                    .readAhead((event, identity, ref) -> lines.add(ref), 1));
    assertEquals("disk gone", e.getMessage());
    assertEquals(false, lines.isEmpty());
  }

  @Test
  void aLargeFileScannedInPartsYieldsWhatOneScanDoesOnceEachPartsLinesAreShifted(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path file = largeFile(tmp);
    try (java.io.OutputStream out =
        java.nio.file.Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
      out.write(line(1, "{}").getBytes(StandardCharsets.UTF_8)); // a last line without a line feed
    }
    JsonlSource source =
        new JsonlSource(file.toString(), ZoneOffset.UTC, java.io.InputStream.nullInputStream());
    List<String> whole = new ArrayList<>();
    IngestStats wholeStats = source.scan((header, line) -> whole.add(header.ts() + " " + line));

    List<List<String>> seen = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<JsonlSource.ScannedPart> parts =
        source.scan(3, i -> (header, line) -> seen.get(i).add(header.ts() + " " + line));
    assertEquals(3, parts.size());
    List<String> joined = new ArrayList<>();
    IngestStats joinedStats = new IngestStats();
    long shift = 0;
    for (int i = 0; i < parts.size(); i++) {
      for (String s : seen.get(i)) {
        int space = s.indexOf(' ');
        joined.add(s.substring(0, space) + " " + (Long.parseLong(s.substring(space + 1)) + shift));
      }
      joinedStats.add(parts.get(i).stats());
      shift += parts.get(i).lines();
    }
    assertEquals(whole, joined);
    assertEquals(wholeStats.skipped(), joinedStats.skipped());
    assertEquals(wholeStats.eventsRead(), joinedStats.eventsRead());
    assertEquals(wholeStats.naiveTimestamps(), joinedStats.naiveTimestamps());
  }

  @Test
  void readingFromTheMarkOfALineYieldsWhatReadingFromTheStartDoesFromThatLine(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp) throws Exception {
    java.nio.file.Path file = largeFile(tmp);
    JsonlSource source =
        new JsonlSource(file.toString(), ZoneOffset.UTC, java.io.InputStream.nullInputStream());
    LineMarks marks = new LineMarks();
    long shift = 0;
    for (JsonlSource.ScannedPart part : source.scan(2, i -> (header, line) -> {})) {
      marks.addAll(part.marks(), shift);
      shift += part.lines();
    }
    long lines = shift;
    byte[] bytes = java.nio.file.Files.readAllBytes(file);
    for (long line = LineMarks.EVERY; line <= lines; line += 7 * LineMarks.EVERY + 1) {
      LineMarks.Mark mark = marks.atOrBefore(line);
      assertEquals(
          true, mark.line() <= line && line - mark.line() < 2L * LineMarks.EVERY, "" + mark);
      assertEquals('\n', bytes[(int) mark.offset() - 1], "a mark is where a line begins");
      assertEquals(mark.line() - 1, newlines(bytes, (int) mark.offset()), "and that line is hers");
    }
    for (long firstLine : new long[] {1, LineMarks.EVERY, 3L * LineMarks.EVERY + 5, lines - 2}) {
      LineMarks.Mark mark = marks.atOrBefore(firstLine);
      List<Seen> whole = new ArrayList<>();
      IngestStats wholeStats =
          source.read(
              (e, id, ref) -> whole.add(new Seen(e.event(), ref, id.getAsLong())), firstLine);
      List<Seen> fromMark = new ArrayList<>();
      IngestStats markStats =
          source.read(
              (e, id, ref) -> fromMark.add(new Seen(e.event(), ref, id.getAsLong())),
              firstLine,
              mark);
      List<Seen> ahead = new ArrayList<>();
      IngestStats aheadStats =
          source.readAhead(
              (e, id, ref) -> ahead.add(new Seen(e.event(), ref, id.getAsLong())), firstLine, mark);
      assertEquals(whole, fromMark, "from line " + firstLine);
      assertEquals(whole, ahead, "from line " + firstLine);
      for (IngestStats s : List.of(markStats, aheadStats)) {
        assertEquals(wholeStats.skipped(), s.skipped());
        assertEquals(wholeStats.eventsRead(), s.eventsRead());
        assertEquals(wholeStats.naiveTimestamps(), s.naiveTimestamps());
      }
    }
    assertEquals(LineMarks.Mark.START, marks.atOrBefore(LineMarks.EVERY - 1));
  }

  /**
   * A file of {@link #mixed} blocks, more than twice the size from which a file is scanned in
   * parts.
   */
  private static java.nio.file.Path largeFile(java.nio.file.Path tmp) throws java.io.IOException {
    byte[] block = mixed();
    java.nio.file.Path file = tmp.resolve("large.jsonl");
    try (java.io.OutputStream out = java.nio.file.Files.newOutputStream(file)) {
      for (long written = 0; written < 2 * SPLIT_BYTES + 1; written += block.length) {
        out.write(block);
      }
    }
    return file;
  }

  private static long newlines(byte[] bytes, int before) {
    long n = 0;
    for (int i = 0; i < before; i++) {
      if (bytes[i] == '\n') {
        n++;
      }
    }
    return n;
  }
}
