package dev.vigil.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.io.AtomicWrite;
import dev.vigil.observe.Timestamps;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The fleet summary: {@code <out>/report.json} and {@code <out>/report.md} list, per agent, its
 * mood, thorn count, top thorn, alarm and last pass, read back from each agent's own {@code
 * report.json} and {@code agent.json}; {@code <out>/index.html} shows every agent's latest alarm,
 * worst first ({@link FleetPage}).
 */
public final class FleetSummary {
  /**
   * Per agent: its display name and when its last pass ran (and, in {@code watch}, what triggered
   * it).
   */
  public static final String AGENT_JSON = "agent.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final ObjectWriter PRETTY = MAPPER.writerWithDefaultPrettyPrinter();

  private FleetSummary() {}

  /**
   * Records an agent's pass beside its report: its display name, when the pass ran, and its extra
   * fields.
   */
  public static void recordPass(Path agentOut, String agent, Instant passAt, ObjectNode extra)
      throws IOException {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("agent", agent);
    n.put("last_pass", Timestamps.format(passAt));
    if (extra != null) {
      n.setAll(extra);
    }
    AtomicWrite.replace(agentOut.resolve(AGENT_JSON), PRETTY.writeValueAsBytes(n));
  }

  /**
   * Writes the summary of every agent that has a report under {@code <out>/agents/}.
   *
   * @param extra fields added at the top level (for example {@code watch}'s delay figures), or null
   * @return the summary
   */
  public static ObjectNode write(Path out, Instant now, ObjectNode extra) throws IOException {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("fleet", true);
    root.put("now", Timestamps.format(now));
    ArrayNode agents = root.putArray("agents");
    for (Path dir : agentDirs(out)) {
      JsonNode report = MAPPER.readTree(dir.resolve(Artifacts.REPORT_JSON).toFile());
      Path meta = dir.resolve(AGENT_JSON);
      JsonNode agent =
          Files.exists(meta) ? MAPPER.readTree(meta.toFile()) : MAPPER.createObjectNode();
      ObjectNode a = agents.addObject();
      a.put("agent", agent.path("agent").asText(dir.getFileName().toString()));
      a.put("dir", out.relativize(dir).toString().replace('\\', '/'));
      a.put("mood", report.path("snapshot").path("mood").asText("calm"));
      a.put("thorns", report.path("rbt").path("counts").path("thorns").asInt(0));
      JsonNode top = report.path("rbt").path("top_thorns").path(0);
      if (top.isMissingNode()) {
        a.putNull("top_thorn");
      } else {
        a.set("top_thorn", top);
      }
      a.put("last_pass", agent.path("last_pass").asText(report.path("now").asText()));
      a.put("events_used", report.path("events_used").asLong(0));
      a.put("stage", report.path("stage").asText());
      JsonNode alarm = report.path("alarm");
      a.putObject("alarm")
          .put("score", alarm.path("score").asDouble(0))
          .put("level", alarm.path("level").asText("ok"));
    }
    root.put("agent_count", agents.size());
    if (extra != null) {
      root.setAll(extra);
    }
    AtomicWrite.replace(out.resolve(Artifacts.REPORT_JSON), PRETTY.writeValueAsBytes(root));
    AtomicWrite.replace(
        out.resolve(Artifacts.REPORT_MD), markdown(root).getBytes(StandardCharsets.UTF_8));
    FleetPage.write(out, root);
    return root;
  }

  /** The agents' report directories, sorted by name. */
  static List<Path> agentDirs(Path out) throws IOException {
    Path agents = out.resolve(FleetLayout.AGENTS);
    List<Path> dirs = new ArrayList<>();
    if (!Files.isDirectory(agents)) {
      return dirs;
    }
    try (Stream<Path> s = Files.list(agents)) {
      s.filter(d -> Files.isRegularFile(d.resolve(Artifacts.REPORT_JSON)))
          .sorted()
          .forEach(dirs::add);
    }
    return dirs;
  }

  private static String markdown(JsonNode root) {
    StringBuilder b = new StringBuilder("# Vigil fleet summary\n\n");
    b.append("At ")
        .append(root.get("now").asText())
        .append(", ")
        .append(root.get("agent_count").asInt())
        .append(" agents.\n\n");
    b.append("| agent | mood | thorns | top thorn | last pass | report |\n");
    b.append("| --- | --- | --- | --- | --- | --- |\n");
    for (JsonNode a : root.get("agents")) {
      JsonNode top = a.get("top_thorn");
      b.append("| ")
          .append(a.get("agent").asText())
          .append(" | ")
          .append(a.get("mood").asText())
          .append(" | ")
          .append(a.get("thorns").asInt())
          .append(" | ")
          .append(top.isNull() ? "none" : top.get("cause").asText())
          .append(" | ")
          .append(a.get("last_pass").asText())
          .append(" | ")
          .append(a.get("dir").asText())
          .append("/report.md |\n");
    }
    return b.toString();
  }
}
