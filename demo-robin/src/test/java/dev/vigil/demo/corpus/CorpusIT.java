package dev.vigil.demo.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generator on the real path: both agents under {@code -javaagent:vigil.jar}, every session's
 * events recorded with its session and turns, the tools' real refusals and failures where the
 * scenarios plant them, and the committed corpus under {@code samples/corpus} is what the committed
 * generator makes (up to times, ids and durations).
 */
class CorpusIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * An object's identity hash in its {@code toString()} ({@code CompletableFuture@1b2c3d[Not
   * completed]}).
   */
  private static final Pattern IDENTITY = Pattern.compile("@[0-9a-f]{4,8}\\b");

  @TempDir Path tmp;

  @Test
  void generatesEverySessionThroughTheAgentAndMatchesTheCommittedCorpus() throws Exception {
    Path root = Path.of(System.getProperty("vigil.root", "..")).toAbsolutePath().normalize();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    CorpusGenerator.generate(
        root,
        tmp.resolve("out"),
        tmp.resolve("work"),
        CorpusGenerator.SEED,
        new PrintStream(printed, true, StandardCharsets.UTF_8));
    String log = printed.toString(StandardCharsets.UTF_8);
    assertTrue(log.contains("270 of 270 sessions have events of their own"), log);

    Map<String, List<JsonNode>> bySession = bySession(tmp.resolve("out/events.jsonl"));
    Map<String, String> kinds = new TreeMap<>();
    for (String line : Files.readAllLines(tmp.resolve("out/manifest.jsonl"))) {
      JsonNode m = JSON.readTree(line);
      kinds.put(m.get("session").asText(), m.get("kind").asText());
    }
    CorpusPlan plan = CorpusPlan.of(CorpusGenerator.SEED);
    for (ObjectNode script : concat(plan.shop(), plan.robin())) {
      String session = script.get("session").asText();
      List<JsonNode> events = bySession.get(session);
      assertEquals(script.get("turns").size(), count(events, "turn.user", "ok"), session);
      assertEquals(script.get("turns").size(), count(events, "turn.answer", "ok"), session);
      switch (kinds.get(session)) {
        case "write_after_refusal" ->
            assertEquals("fail,fail,ok", statuses(events, "tool.cancel_order"), session);
        case "gateway_outage" ->
            assertEquals("fail,fail,fail", statuses(events, "tool.refund_order"), session);
        case "clean_gateway_retry" ->
            assertEquals("fail,ok", statuses(events, "tool.refund_order"), session);
        case "policy_violation" ->
            assertEquals("ok", statuses(events, "tool.refund_order"), session);
        case "lost_reminder" -> assertEquals("fail", statuses(events, "backend.schedule"), session);
        case "clean_parse_recovery" ->
            assertEquals("fail,ok", statuses(events, "tool.set_reminder"), session);
        default -> {}
      }
    }
    for (String file : List.of("labels.jsonl", "manifest.jsonl", "rules.json")) {
      assertEquals(
          Files.readString(root.resolve("samples/corpus").resolve(file)),
          Files.readString(tmp.resolve("out").resolve(file)),
          file);
    }
    List<String> committed = normalized(root.resolve("samples/corpus/events.jsonl"));
    List<String> generated = normalized(tmp.resolve("out/events.jsonl"));
    List<String> onlyCommitted = new ArrayList<>(committed);
    onlyCommitted.removeAll(generated);
    List<String> onlyGenerated = new ArrayList<>(generated);
    onlyGenerated.removeAll(committed);
    assertEquals(
        List.of(),
        onlyCommitted.subList(0, Math.min(3, onlyCommitted.size())),
        "samples/corpus/events.jsonl differs from what the generator makes now; regenerate it with "
            + "demo-robin/corpus.sh. Made now: "
            + onlyGenerated.subList(0, Math.min(3, onlyGenerated.size())));
    assertEquals(committed.size(), generated.size());
  }

  private static Map<String, List<JsonNode>> bySession(Path events) throws Exception {
    Map<String, List<JsonNode>> out = new TreeMap<>();
    for (String line : Files.readAllLines(events)) {
      JsonNode e = JSON.readTree(line);
      out.computeIfAbsent(e.path("session").asText("(none)"), k -> new ArrayList<>()).add(e);
    }
    return out;
  }

  private static long count(List<JsonNode> events, String kind, String status) {
    return events.stream()
        .filter(e -> e.get("kind").asText().equals(kind) && e.get("status").asText().equals(status))
        .count();
  }

  private static String statuses(List<JsonNode> events, String kind) {
    return events.stream()
        .filter(e -> e.get("kind").asText().equals(kind))
        .map(e -> e.get("status").asText())
        .collect(Collectors.joining(","));
  }

  /**
   * Each event without what differs between runs (times, ids, durations, stack frames, identity
   * hashes), sorted.
   */
  private static List<String> normalized(Path events) throws Exception {
    List<String> out = new ArrayList<>();
    for (String line : Files.readAllLines(events)) {
      ObjectNode e = (ObjectNode) JSON.readTree(line);
      e.remove(List.of("ts", "seq", "pid", "thread", "turn", "call_id"));
      ObjectNode payload = (ObjectNode) e.get("payload");
      payload.remove("duration_ms");
      if (payload.get("error") instanceof ObjectNode error) {
        error.remove("frames");
      }
      out.add(IDENTITY.matcher(JSON.writeValueAsString(e)).replaceAll("@…"));
    }
    out.sort(null);
    return out;
  }

  private static List<ObjectNode> concat(List<ObjectNode> a, List<ObjectNode> b) {
    List<ObjectNode> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}
