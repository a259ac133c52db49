package dev.vigil.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.io.AtomicWrite;
import dev.vigil.report.Artifacts;
import dev.vigil.report.HtmlTemplates;
import dev.vigil.report.SvgChart;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code watch}'s {@code OUT/index.html} (docs/REPORT.md): the passes kept under {@code passes/},
 * newest first, each with its trigger, alarm, mood and top thorn and a link to its {@code
 * report.html}, and a chart of the alarm score over the passes. Rewritten after every pass from the
 * kept passes' {@code pass.json}; the newest {@value #MAX_PASSES} are listed, so that a watch of
 * months still writes a small page.
 */
final class PassIndex {
  /** The page. */
  static final String INDEX_HTML = "index.html";

  /** Passes listed and charted, the newest. */
  static final int MAX_PASSES = 500;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Map<String, String> LEVEL_COLORS =
      Map.of("ok", "#2e7d32", "watch", "#b7791f", "alarm", "#c62828");

  /**
   * One kept pass.
   *
   * @param name its directory under {@code passes/}
   * @param passAt when it ran
   * @param trigger what triggered it
   * @param events new events since the agent's last pass
   * @param level its alarm's level, or empty when unknown
   * @param score its alarm's score, two decimals, or empty
   * @param mood its mood, or empty
   * @param thorns its thorn count
   * @param topThorn its top thorn's cause, or empty
   * @param degraded whether it finished degraded
   * @param report the link to its page, or empty when it kept none
   */
  record Row(
      String name,
      String passAt,
      String trigger,
      long events,
      String level,
      String score,
      String mood,
      int thorns,
      String topThorn,
      boolean degraded,
      String report) {}

  private PassIndex() {}

  /**
   * Rewrites {@code out/index.html} for the agent whose reports {@code out} holds (null: the only
   * agent).
   */
  static void write(Path out, String agent) throws IOException {
    List<Path> dirs = passDirs(out.resolve(PassArchive.PASSES));
    int total = dirs.size();
    List<Row> rows = new ArrayList<>();
    for (Path dir : dirs.subList(0, Math.min(MAX_PASSES, dirs.size()))) {
      rows.add(row(out, dir));
    }
    Map<String, Object> m = new HashMap<>();
    m.put("agent", agent == null ? "" : agent);
    m.put("rows", rows);
    m.put("total", total);
    m.put("latest", Files.exists(out.resolve(Artifacts.REPORT_HTML)) ? Artifacts.REPORT_HTML : "");
    m.put("chart", chart(rows));
    AtomicWrite.replace(
        out.resolve(INDEX_HTML), HtmlTemplates.render("dev/vigil/watch/index.peb", m));
  }

  /**
   * The kept passes' directories, newest first (a {@code -N} suffix orders passes within one
   * second).
   */
  static List<Path> passDirs(Path passes) throws IOException {
    if (!Files.isDirectory(passes)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(passes)) {
      return s.filter(Files::isDirectory)
          .sorted(
              Comparator.comparing((Path p) -> base(p))
                  .thenComparingInt(PassIndex::suffix)
                  .reversed())
          .toList();
    }
  }

  private static String base(Path dir) {
    String name = dir.getFileName().toString();
    int dash = name.indexOf('-');
    return dash < 0 ? name : name.substring(0, dash);
  }

  private static int suffix(Path dir) {
    String name = dir.getFileName().toString();
    int dash = name.indexOf('-');
    try {
      return dash < 0 ? 1 : Integer.parseInt(name.substring(dash + 1));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static Row row(Path out, Path dir) {
    JsonNode pass = read(dir.resolve(WatchPasses.PASS_JSON));
    JsonNode alarm = pass.path("alarm");
    JsonNode report =
        alarm.isMissingNode()
            ? read(dir.resolve(Artifacts.REPORT_JSON))
            : MAPPER.createObjectNode();
    if (alarm.isMissingNode()) { // a pass kept before pass.json carried the alarm
      alarm = report.path("alarm");
    }
    String mood = pass.path("mood").asText(report.path("snapshot").path("mood").asText(""));
    int thorns =
        pass.path("thorns").asInt(report.path("rbt").path("counts").path("thorns").asInt(0));
    String top =
        pass.path("top_thorn")
            .asText(report.path("rbt").path("top_thorns").path(0).path("cause").asText(""));
    String link =
        Files.exists(dir.resolve(Artifacts.REPORT_HTML))
            ? out.relativize(dir.resolve(Artifacts.REPORT_HTML)).toString().replace('\\', '/')
            : "";
    return new Row(
        dir.getFileName().toString(),
        pass.path("pass_at").asText(dir.getFileName().toString()),
        pass.path("trigger").asText(""),
        pass.path("events").asLong(0),
        alarm.path("level").asText(""),
        alarm.has("score") ? String.format(Locale.ROOT, "%.2f", alarm.get("score").asDouble()) : "",
        mood,
        thorns,
        top,
        pass.path("degraded").asBoolean(false),
        link);
  }

  private static JsonNode read(Path file) {
    try {
      return Files.exists(file) ? MAPPER.readTree(file.toFile()) : MAPPER.createObjectNode();
    } catch (IOException e) {
      return MAPPER.createObjectNode(); // a torn or foreign file: the row shows what it can
    }
  }

  /**
   * The alarm score over the listed passes, oldest on the left, each pass a dot in its level's
   * color.
   */
  static SvgChart chart(List<Row> newestFirst) {
    List<Row> rows = new ArrayList<>(newestFirst);
    java.util.Collections.reverse(rows);
    rows.removeIf(r -> r.score().isEmpty());
    SvgChart.Builder c = SvgChart.builder(960, 220, 0, Math.max(1, rows.size() - 1), 0, 1);
    if (rows.isEmpty()) {
      return c.build();
    }
    double[] xs = new double[rows.size()];
    double[] ys = new double[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      xs[i] = i;
      ys[i] = Double.parseDouble(rows.get(i).score());
    }
    c.line("alarm score", "#59636e", xs, ys);
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      c.mark(
          i,
          ys[i],
          LEVEL_COLORS.getOrDefault(r.level(), "#59636e"),
          r.passAt()
              + ": "
              + r.level()
              + " "
              + r.score()
              + (r.topThorn().isEmpty() ? "" : ", top thorn " + r.topThorn()));
    }
    c.xTick(0, rows.get(0).passAt().replaceFirst("\\.\\d+Z$", "Z"));
    if (rows.size() > 1) {
      c.xTick(rows.size() - 1, rows.get(rows.size() - 1).passAt().replaceFirst("\\.\\d+Z$", "Z"));
    }
    for (double y : new double[] {0, 0.5, 1}) {
      c.yTick(y, String.format(Locale.ROOT, "%.1f", y));
    }
    return c.build();
  }
}
