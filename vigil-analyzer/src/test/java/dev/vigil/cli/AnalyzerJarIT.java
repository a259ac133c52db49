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
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final Path JDK25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");

  @TempDir Path tmp;

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
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "analyzer did not finish");
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
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
  void aPolicyRuleIsCompiledAndEvaluatedInsideTheJarWithoutWarnings() throws Exception {
    Path events =
        Files.writeString(
            tmp.resolve("shop.jsonl"),
            String.join(
                "\n",
                "{\"ts\":\"2026-11-22T12:00:01Z\",\"kind\":\"tool.get_order\",\"status\":\"ok\",\"session\":\"s1\","
                    + "\"payload\":{\"tool\":\"getOrder\",\"result\":\"{\\\"status\\\":\\\"shipped\\\"}\"}}",
                "{\"ts\":\"2026-11-22T12:00:02Z\",\"kind\":\"tool.refund_order\",\"status\":\"ok\",\"session\":\"s1\","
                    + "\"payload\":{\"tool\":\"refundOrder\",\"result\":\"refunded\"}}",
                ""));
    Path rules =
        Files.writeString(
            tmp.resolve("policies.json"),
            "{\"policies\":[{"
                + "\"name\":\"no_refund_after_shipping\",\"tool\":\"refund_order\",\"severity\":0.9,"
                + "\"violation\":\"session.last('tool.get_order').payload.result.status == 'shipped'\"}]}");
    List<Path> javas =
        new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")));
    if (Files.isExecutable(JDK25)) {
      javas.add(JDK25); // protobuf before 4.36 warned about sun.misc.Unsafe there
    }
    for (Path java : javas) {
      Result r =
          run(
              java,
              "run",
              "--events",
              events.toString(),
              "--rules",
              rules.toString(),
              "--emobank",
              tmp.resolve("bank-" + javas.indexOf(java)).toString(),
              "--out",
              tmp.resolve("out").toString(),
              "--now",
              "2026-11-22T13:00:00Z");
      assertEquals(0, r.exit(), r.err());
      assertTrue(
          r.out()
              .contains(
                  "detector policy.no_refund_after_shipping: 1 of 1 calls of refund_order broke "
                      + "policy no_refund_after_shipping"),
          r.out());
      assertEquals("", r.err(), java.toString());
    }
    Result broken =
        run(
            javas.get(0),
            "run",
            "--events",
            events.toString(),
            "--rules",
            Files.writeString(
                    tmp.resolve("broken.json"),
                    "{\"policies\":[{\"name\":\"p\",\"tool\":\"t\",\"violation\":\"args.x ==\"}]}")
                .toString(),
            "--emobank",
            tmp.resolve("bank-x").toString(),
            "--out",
            tmp.resolve("out").toString());
    assertEquals(2, broken.exit());
    assertTrue(
        broken.err().contains("policy 1 (p): \"violation\" does not compile at column 10"),
        broken.err());
  }

  @Test
  void missingQueueExitsTwoNamingThePath() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Result r = run(java, "export", "--queue", tmp.resolve("absent").toString());
    assertEquals(2, r.exit());
    assertTrue(r.err().contains(tmp.resolve("absent").toString()), r.err());
  }

  @Test
  void aPassThatOutgrowsTheHeapNamesTheRemedyAndLosesNothingStored() throws Exception {
    // memory does not grow with the events used, but a pass holds 4,096 events to put them in time
    // order: events of
    // 20 KB each (a large tool result) outgrow a 40 MB heap
    Path events = tmp.resolve("many.jsonl");
    String blob = "x".repeat(20_000);
    try (var w = Files.newBufferedWriter(events, StandardCharsets.UTF_8)) {
      for (int i = 0; i < 8_000; i++) {
        w.write(
            "{\"ts\":\"2026-11-22T10:"
                + String.format("%02d:%02d", i / 6000 % 60, i / 100 % 60)
                + "."
                + String.format("%06d", i)
                + "Z\",\"kind\":\"tool.search\",\"status\":\"ok\",\"payload\":{\"args\":"
                + "{\"q\":\"weather "
                + i
                + "\",\"page\":"
                + i
                + "},\"result\":\""
                + blob
                + i
                + "\",\"duration_ms\":"
                + i
                + ".5},\"seq\":"
                + i
                + "}\n");
      }
    }
    Path bank = tmp.resolve("bank");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    List<String> command =
        List.of(
            java.toString(),
            "-Xmx40m",
            "-jar",
            JAR.toString(),
            "run",
            "--events",
            events.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            "2026-11-22T12:00:00Z",
            "--limit",
            "8000");
    Process p =
        new ProcessBuilder(command)
            .redirectOutput(tmp.resolve("oom.out").toFile())
            .redirectError(tmp.resolve("oom.err").toFile())
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "analyzer did not finish");
    String err = Files.readString(tmp.resolve("oom.err"));
    assertEquals(1, p.exitValue(), err);
    assertTrue(
        err.startsWith("vigil-analyzer: out of memory: the Java heap (at most ")
            && err.contains("--limit")
            && !err.contains("\tat "),
        err);
    try (dev.vigil.emobank.EmoBank b = dev.vigil.emobank.EmoBank.open(bank)) {
      assertEquals(0, b.depositedEvents(), "nothing committed by the pass that ran out of heap");
    }
  }
}
