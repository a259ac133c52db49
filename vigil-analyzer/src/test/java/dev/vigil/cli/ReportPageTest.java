package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.report.Artifacts;
import dev.vigil.report.Chromium;
import dev.vigil.report.ChromiumExtension;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report.html} of a real {@code run} (Robin's sample events, its prompt, a repository with a
 * receipt hotspot), opened in a real headless Chromium: it loads with no error and fetches nothing,
 * shows what {@code report.json} says, draws its chart, and looks like something. The screenshot
 * goes to {@code target/report.png} and, with {@code -Dvigil.screenshot=FILE}, to that file too (as
 * docs/REPORT.md shows).
 */
@ExtendWith(ChromiumExtension.class)
class ReportPageTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Path SAMPLE =
      Path.of(System.getProperty("vigil.sample", "../samples/robin-a.jsonl"));
  private static final Path PROMPT =
      Path.of(
          System.getProperty("vigil.robin.prompt", "../demo-robin/robin/prompt/system-prompt.txt"));

  @TempDir Path tmp;

  private Path pass() throws IOException, URISyntaxException {
    Path repo = tmp.resolve("repo");
    Path source =
        Path.of(ReportPageTest.class.getClassLoader().getResource("repos/receipt-service").toURI());
    try (Stream<Path> walk = Files.walk(source)) {
      for (Path p : walk.toList()) {
        Path t = repo.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path dir = tmp.resolve("out");
    int exit =
        Main.run(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "run",
            "--events",
            SAMPLE.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            dir.toString(),
            "--now",
            "2025-10-31T20:00:00Z",
            "--prompt",
            PROMPT.toString(),
            "--repo",
            repo.toString());
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains(dir.resolve("report.html").toString()),
        out.toString(StandardCharsets.UTF_8));
    return dir;
  }

  private static String text(Chromium chromium, String selector) {
    return chromium
        .evaluate("document.querySelector(" + MAPPER.valueToTree(selector) + ").textContent.trim()")
        .asText();
  }

  @Test
  void showsTheAlarmTheMoodTheTopThornAndEveryDetectorOfReportJson(Chromium chromium)
      throws Exception {
    Path out = pass();
    JsonNode report = MAPPER.readTree(out.resolve("report.json").toFile());

    JsonNode audit = MAPPER.readTree(Files.readAllLines(out.resolve("audit.jsonl")).get(0));
    assertEquals(
        Artifacts.sha256(Files.readAllBytes(out.resolve("report.html"))),
        audit.at("/artifacts/report.html").asText(),
        "audit.jsonl digests the page");

    Chromium.Load load = chromium.open(out.resolve("report.html"));

    assertEquals(List.of(), load.errors(), "the page logged errors");
    assertEquals(List.of(), load.requests(), "the page fetched something");
    assertEquals(report.at("/alarm/level").asText(), text(chromium, "#alarm .level"));
    assertEquals(
        String.format(Locale.ROOT, "%.2f", report.at("/alarm/score").asDouble()),
        text(chromium, "#alarm .score"));
    assertEquals(
        report.at("/alarm/reasons").size(),
        chromium.evaluate("document.querySelectorAll('#alarm-reasons tr').length").asInt() - 1);
    assertEquals(report.at("/snapshot/mood").asText(), text(chromium, "#mood .mood"));
    assertEquals(
        report.at("/rbt/top_thorns/0/cause").asText(), text(chromium, "#top-thorn .cause"));
    assertEquals(report.at("/rbt/counts/thorns").asText(), text(chromium, "#count-thorns"));
    for (JsonNode d : report.get("detectors")) {
      String at = "[data-detector=\"" + d.get("name").asText() + "\"] ";
      assertEquals(d.get("name").asText(), text(chromium, at + ".name"));
      assertEquals(d.get("count").asText(), text(chromium, at + ".count"));
    }
    // premature_success cites each of its 12 successes and their confirmations: 24 events, with
    // kind and status
    assertEquals(
        24,
        chromium
                .evaluate(
                    "document.querySelectorAll('[data-detector=\"premature_success\"] table.ev tr').length")
                .asInt()
            - 1);
    assertEquals(
        "reminder.toast",
        text(chromium, "[data-detector=\"premature_success\"] table.ev tr:nth-child(2) code"));

    int emotions = report.at("/snapshot/totals").size();
    assertEquals(
        emotions,
        chromium.evaluate("document.querySelectorAll('#timeline-chart polyline').length").asInt());
    assertTrue(
        chromium
            .evaluate(
                "[...document.querySelectorAll('#timeline-chart polyline')]"
                    + ".every(p => p.getTotalLength() > 100 && p.getBBox().width > 500)")
            .asBoolean(),
        "every line is drawn");
    assertEquals(
        report.at("/rbt/counts/thorns").asInt(),
        chromium
            .evaluate("document.querySelectorAll('#timeline-chart circle.mark').length")
            .asInt());
    assertTrue(
        chromium.evaluate("document.querySelectorAll('#prompt-diff .add').length").asInt() > 0);
    assertTrue(
        chromium.evaluate("document.querySelectorAll('#proposals .diff .add').length").asInt() > 0);
    assertTrue(
        chromium.evaluate("document.querySelectorAll('#proposals .diff .del').length").asInt() > 0);
    assertTrue(text(chromium, "#proposals").contains("## Why"), "the PR note is shown");

    byte[] png = chromium.screenshot();
    assertNotBlank(png);
    Files.write(Path.of("target", "report.png"), png);
    String copy = System.getProperty("vigil.screenshot");
    if (copy != null && !copy.isBlank()) {
      Files.write(Path.of(copy), png);
    }
  }

  @Test
  void htmlAndScriptInEventsRenderAsTextAndNoScriptOfTheirsRuns(Chromium chromium)
      throws Exception {
    String script = "<script>window.pwned=1;document.title='pwned'</script>";
    String img = "<img src=x onerror=\"window.pwned=2\">";
    String result = "</td></tr></table></details><script>window.pwned=3</script>";
    String session = "\"><script>window.pwned=4</script>";
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      ObjectNode payload = MAPPER.createObjectNode().put("tool", "book");
      payload.putObject("args").put("note", script + " #" + i);
      payload.put("result", result);
      payload
          .putObject("error")
          .put("type", "<b>BookingException</b>")
          .put("message", img + " the backend refused the booking request, attempt " + i);
      Event e =
          Event.of(
                  Instant.parse("2026-11-22T11:00:00Z").plusSeconds(60L * i),
                  "tool.book",
                  "fail",
                  payload)
              .withSession(session);
      events.append(EventJson.write(e)).append('\n');
    }
    Path file = Files.writeString(tmp.resolve("hostile.jsonl"), events.toString());
    Path dir = tmp.resolve("hostile");
    int exit =
        Main.run(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            "run",
            "--events",
            file.toString(),
            "--emobank",
            tmp.resolve("bank2").toString(),
            "--out",
            dir.toString(),
            "--now",
            "2026-11-22T12:00:00Z");
    assertEquals(0, exit);
    assertEquals(
        1,
        MAPPER
            .readTree(dir.resolve("report.json").toFile())
            .at("/detectors")
            .findValues("plateaus")
            .stream()
            .filter(p -> p.size() > 0)
            .count(),
        "failure_plateau cites the four calls");

    Chromium.Load load = chromium.open(dir.resolve("report.html"));

    assertEquals(List.of(), load.errors());
    assertEquals(List.of(), load.requests());
    assertEquals("undefined", chromium.evaluate("typeof window.pwned").asText());
    assertTrue(chromium.evaluate("document.title").asText().startsWith("Vigil report"));
    assertEquals(
        0, chromium.evaluate("document.querySelectorAll('script, img, [onerror]').length").asInt());
    assertEquals(
        false,
        chromium
            .evaluate(
                "[...document.querySelectorAll('b')].some(b => b.textContent === 'BookingException')")
            .asBoolean());
    String page = chromium.evaluate("document.body.textContent").asText();
    for (String shown : List.of(script + " #3", img, result, session, "<b>BookingException</b>")) {
      assertTrue(page.contains(shown), "the page shows " + shown + " as text");
    }
    assertEquals(
        4,
        chromium
                .evaluate(
                    "document.querySelectorAll('[data-detector=\"failure_plateau\"] table.ev tr').length")
                .asInt()
            - 1);
  }

  /** Many colors, and a good share of the picture not the background. */
  static void assertNotBlank(byte[] png) throws IOException {
    BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
    assertTrue(image.getWidth() > 0 && image.getHeight() > 0, "an empty picture");
    Set<Integer> colors = new HashSet<>();
    int background = image.getRGB(0, 0);
    long other = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        int rgb = image.getRGB(x, y);
        colors.add(rgb);
        if (rgb != background) {
          other++;
        }
      }
    }
    long sampled = (long) ((image.getWidth() + 1) / 2) * ((image.getHeight() + 1) / 2);
    assertTrue(colors.size() >= 50, "only " + colors.size() + " colors in the screenshot");
    assertTrue(
        other * 20 > sampled,
        "the screenshot is nearly all background: " + other + " of " + sampled);
  }
}
