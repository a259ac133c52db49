package dev.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example of docs/LIBRARY.md ("Vigil as a library"), taken from the page as it is, compiled
 * against the packaged {@code vigil-analyzer.jar} alone and run in a JVM of its own over events it
 * can judge.
 */
class LibraryExampleIT {
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final Path LIBRARY_DOC =
      Path.of(System.getProperty("vigil.library-doc", "../docs/LIBRARY.md"));
  private static final String BEGIN = "<!-- library-example:begin -->";
  private static final String END = "<!-- library-example:end -->";
  private static final String DETECTOR_BEGIN = "<!-- library-detector:begin -->";
  private static final String DETECTOR_END = "<!-- library-detector:end -->";

  @TempDir Path tmp;

  static String example(String page) {
    return block(page, BEGIN, END);
  }

  private static String block(String page, String beginMarker, String endMarker) {
    int begin = page.indexOf(beginMarker);
    int end = page.indexOf(endMarker);
    assertTrue(
        begin >= 0 && end > begin,
        LIBRARY_DOC + " has no " + beginMarker + " ... " + endMarker + " block");
    String block = page.substring(begin + beginMarker.length(), end).strip();
    assertTrue(
        block.startsWith("```java") && block.endsWith("```"),
        "the example is not one java code block");
    return block.substring("```java".length(), block.length() - 3);
  }

  @Test
  void theLibraryDocExampleCompilesAgainstTheJarAndFindsWhatItsDetectorIsFor() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src"));
    Path classes = Files.createDirectories(tmp.resolve("classes"));
    Path source =
        Files.writeString(
            src.resolve("VigilExample.java"),
            example(Files.readString(LIBRARY_DOC, StandardCharsets.UTF_8)));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int compiled =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-cp",
            JAR.toString(),
            "-d",
            classes.toString(),
            source.toString());
    assertEquals(0, compiled, diagnostics.toString(StandardCharsets.UTF_8));

    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      var payload =
          EventJson.mapper()
              .createObjectNode()
              .put("tool", "findOrder")
              .put("result", i % 3 == 0 ? "" : "order o-" + i);
      events
          .append(
              EventJson.write(
                  Event.of(now.minusSeconds(600 - 60L * i), "tool.find_order", "ok", payload)))
          .append('\n');
    }
    Path file = Files.writeString(tmp.resolve("events.jsonl"), events.toString());

    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path stdout = tmp.resolve("stdout");
    Process p =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-cp",
                    JAR + File.pathSeparator + classes,
                    "VigilExample",
                    file.toString(),
                    tmp.resolve("work").toString()))
            .redirectErrorStream(true)
            .redirectOutput(stdout.toFile())
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the example did not finish");
    String out = Files.readString(stdout, StandardCharsets.UTF_8);
    assertEquals(0, p.exitValue(), out);
    assertTrue(out.contains("empty_result: 2"), out);
    assertTrue(out.contains("premature_success: 0"), out);

    JsonNode report = new ObjectMapper().readTree(tmp.resolve("work/out/report.json").toFile());
    JsonNode mine = null;
    for (JsonNode d : report.get("detectors")) {
      if (d.path("name").asText().equals("empty_result")) {
        mine = d;
      }
    }
    assertTrue(mine != null, report.get("detectors").toString());
    assertEquals(2, mine.get("count").asInt());
    assertEquals(
        "2 calls succeeded with an empty result", mine.get("summary").asText(), mine.toString());
    // its derived events were appraised (fail: frustration) and deposited like Vigil's own
    assertEquals(2, report.get("derived_events").asInt(), report.toString());
  }

  @Test
  void theMainExampleNeedsOnlyTheFacadeAndTheEventType() throws Exception {
    String example = example(Files.readString(LIBRARY_DOC, StandardCharsets.UTF_8));
    for (String line : example.lines().filter(l -> l.startsWith("import ")).toList()) {
      String type = line.substring("import ".length(), line.length() - 1);
      assertTrue(
          type.startsWith("dev.vigil.api.")
              || type.equals("dev.vigil.observe.Event")
              || type.startsWith("java."),
          "the example imports " + type + ", outside dev.vigil.api and the event type");
    }
  }

  @Test
  void theStatefulDetectorExampleCompilesAgainstTheJar() throws Exception {
    Path src = Files.createDirectories(tmp.resolve("src"));
    Path source =
        Files.writeString(
            src.resolve("ThirdFailure.java"),
            block(
                Files.readString(LIBRARY_DOC, StandardCharsets.UTF_8),
                DETECTOR_BEGIN,
                DETECTOR_END));
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int compiled =
        ToolProvider.getSystemJavaCompiler()
            .run(
                null,
                diagnostics,
                diagnostics,
                "-cp",
                JAR.toString(),
                "-d",
                Files.createDirectories(tmp.resolve("classes")).toString(),
                source.toString());
    assertEquals(0, compiled, diagnostics.toString(StandardCharsets.UTF_8));
  }
}
