package dev.vigil.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.io.AtomicWrite;
import dev.vigil.report.Artifacts;
import dev.vigil.report.HtmlTemplates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fleet's overview, {@code <out>/index.html}: every agent's latest alarm, worst first (highest
 * score, then name), with its mood, thorns, top thorn and links to its {@code report.html} and,
 * under {@code watch}, its own {@code index.html} of passes.
 */
final class FleetPage {
  /** The page. */
  static final String INDEX_HTML = "index.html";

  /**
   * One agent.
   *
   * @param agent its display name
   * @param level its latest alarm's level
   * @param score its latest alarm's score, two decimals
   * @param mood its mood
   * @param thorns its thorn count
   * @param topThorn its top thorn's cause, or empty
   * @param lastPass when its last pass ran
   * @param report the link to its latest report
   * @param passes the link to its index of passes, or empty
   */
  record AgentRow(
      String agent,
      String level,
      String score,
      String mood,
      int thorns,
      String topThorn,
      String lastPass,
      String report,
      String passes) {}

  private FleetPage() {}

  /** Writes the page from the fleet summary {@code root}. */
  static void write(Path out, JsonNode root) throws IOException {
    List<JsonNode> agents = new ArrayList<>();
    root.path("agents").forEach(agents::add);
    agents.sort(
        Comparator.comparingDouble((JsonNode a) -> -a.path("alarm").path("score").asDouble())
            .thenComparing(a -> a.path("agent").asText()));
    List<AgentRow> rows = new ArrayList<>();
    for (JsonNode a : agents) {
      String dir = a.path("dir").asText();
      String html = dir + "/" + Artifacts.REPORT_HTML;
      String md = dir + "/" + Artifacts.REPORT_MD;
      rows.add(
          new AgentRow(
              a.path("agent").asText(),
              a.path("alarm").path("level").asText("ok"),
              String.format(Locale.ROOT, "%.2f", a.path("alarm").path("score").asDouble()),
              a.path("mood").asText(),
              a.path("thorns").asInt(),
              a.path("top_thorn").path("cause").asText(""),
              a.path("last_pass").asText(),
              Files.exists(out.resolve(html)) ? html : md,
              Files.exists(out.resolve(dir).resolve(INDEX_HTML)) ? dir + "/" + INDEX_HTML : ""));
    }
    AtomicWrite.replace(
        out.resolve(INDEX_HTML),
        HtmlTemplates.render(
            "dev/vigil/fleet/fleet.peb", Map.of("now", root.path("now").asText(), "agents", rows)));
  }
}
