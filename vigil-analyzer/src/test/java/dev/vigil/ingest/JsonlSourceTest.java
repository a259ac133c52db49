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

class JsonlSourceTest {
  private record Seen(Event event, long line, long identity) {}

  private static List<Seen> read(byte[] input, Map<String, Long> skipped) throws Exception {
    List<Seen> seen = new ArrayList<>();
    IngestStats stats = new JsonlSource(JsonlSource.STDIN, ZoneOffset.UTC, new ByteArrayInputStream(input))
        .read((event, identity, ref) -> seen.add(new Seen(event.event(), ref, identity.getAsLong())));
    skipped.putAll(stats.skipped());
    assertEquals(seen.size(), stats.eventsRead());
    return seen;
  }

  private static String line(int i, String payload) {
    return "{\"ts\":\"2026-11-22T10:00:0" + (i % 10) + "Z\",\"kind\":\"tool.t\",\"status\":\"ok\",\"payload\":"
        + payload + "}";
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
    String text = line(1, "{\"a\":[1,2]}") + "\n" + line(1, "{\"a\":[1,2]}") + "\n" + line(1, "{\"a\":[2,1]}") + "\n";
    List<Seen> seen = read(text.getBytes(StandardCharsets.UTF_8), new java.util.TreeMap<>());
    assertEquals(seen.get(0).identity(), seen.get(1).identity());
    org.junit.jupiter.api.Assertions.assertNotEquals(seen.get(0).identity(), seen.get(2).identity());
  }
}
