package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.RandomEvents;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the packaged {@code vigil-analyzer.jar} with plain {@code java -jar}: no JVM flags. */
class AnalyzerJarIT {
  private static final Path JAR = Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

  @TempDir
  Path tmp;

  private Path queue;
  private final List<Event> events = new ArrayList<>();

  record Result(int exit, String out, String err) {}

  @BeforeEach
  void writeQueue() {
    queue = tmp.resolve("queue");
    RandomEvents random = new RandomEvents(99, 0);
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender appender = q.createAppender();
      for (int i = 0; i < 200; i++) {
        Event e = random.next();
        events.add(e);
        EventWire.append(appender, e);
      }
    }
  }

  private Result run(Path java, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(java.toString(), "-jar", JAR.toString()));
    command.addAll(List.of(args));
    Path out = tmp.resolve("stdout");
    Path err = tmp.resolve("stderr");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "analyzer did not finish");
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private String expectedJsonl() {
    StringBuilder sb = new StringBuilder();
    events.forEach(e -> sb.append(EventJson.write(e)).append('\n'));
    return sb.toString();
  }

  @Test
  void exportRunsWithPlainJavaJarAndPrintsNoWarnings() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Result r = run(java, "export", "--queue", queue.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(expectedJsonl(), r.out());
    assertEquals("", r.err());
  }

  @Test
  void exportRunsOnJava25WhenInstalled() throws Exception {
    Assumptions.assumeTrue(Files.isExecutable(JDK25), "skipped: no JDK 25 at " + JDK25);
    Result r = run(JDK25, "export", "--queue", queue.toString());
    assertEquals(0, r.exit(), r.err());
    assertEquals(expectedJsonl(), r.out());
  }

  @Test
  void missingQueueExitsTwoNamingThePath() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Result r = run(java, "export", "--queue", tmp.resolve("absent").toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(tmp.resolve("absent").toString()), r.err());
  }
}
