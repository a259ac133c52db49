package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.it.apps.early.HoldStartAgent;
import dev.vigil.it.apps.early.PreloadAgent;
import dev.vigil.observe.Event;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls made at the very start of {@code main}, while the agent is still building its
 * instrumentation in the background, are recorded all the same: the start-up gate holds back the
 * class that may be a target (an indirect subtype of an included interface, or a class with a
 * {@code @Tool} method) until the instrumentation is ready. A test agent given before Vigil's
 * ({@link HoldStartAgent}) holds Vigil's build until the gate holds a class of {@code main}, so
 * that {@code main} surely runs before the instrumentation is ready, however fast the machine. Tool
 * classes another agent loaded before Vigil started are retransformed once the instrumentation is
 * ready.
 */
class EarlyCallIT {
  private static final Pattern HELD = Pattern.compile("(\\d+) classes held back");
  private static final String APP = "dev.vigil.it.apps.early.EarlyCallApp";

  @TempDir Path tmp;

  @Test
  void indirectSubtypeOfAnIncludedInterfaceCalledAtTheStartOfMainIsRecorded() throws Exception {
    List<Event> events = runEarly("subtype-first", "sms:11\npong robin\n");
    assertEquals(List.of("tool.send", "tool.ping"), events.stream().map(Event::kind).toList());
    assertEquals(
        "dev.vigil.it.apps.early.SmsChannel", events.get(0).payload().path("class").asText());
    assertEquals("tea at five", events.get(0).payload().path("args").path("message").asText());
  }

  @Test
  void toolAnnotatedClassCalledAtTheStartOfMainIsRecorded() throws Exception {
    List<Event> events = runEarly("tools-first", "pong robin\nsms:11\n");
    assertEquals(List.of("tool.ping", "tool.send"), events.stream().map(Event::kind).toList());
    assertEquals("robin", events.get(0).payload().path("args").path("who").asText());
    assertEquals("pong robin", events.get(0).payload().path("result").asText());
  }

  @Test
  void toolClassesLoadedBeforeVigilStartsAreRetransformedAndRecorded() throws Exception {
    Path queue = tmp.resolve("queue-preloaded");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            null,
            List.of(
                "-Dvigil.queue.dir=" + queue,
                "-Dvigil.methods.include=dev.vigil.it.apps.early.Channel[send]",
                "-Dvigil.debug.startup=true",
                "-javaagent:"
                    + agentJar(PreloadAgent.class)
                    + "=dev.vigil.it.apps.early.PingTools,"
                    + "dev.vigil.it.apps.early.SmsChannel",
                "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
            ChildJvm.applicationClassPath(),
            APP,
            "tools-first");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("pong robin\nsms:11\n", run.stdout());
    List<String> lines = run.vigilLines();
    assertEquals(2, lines.size(), run.stderr());
    // the two tool classes, and SmsChannel's superclass and the included interface the JVM loaded
    // with it
    assertTrue(lines.get(1).contains("; 4 classes loaded before retransformed in "), lines.get(1));
    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(List.of("tool.ping", "tool.send"), events.stream().map(Event::kind).toList());
    assertEquals("robin", events.get(0).payload().path("args").path("who").asText());
  }

  @Test
  void withoutTheAgentTheApplicationPrintsTheSame() throws Exception {
    ChildJvm.Run run = ChildJvm.run(ChildJvm.java(), null, ChildJvm.applicationClassPath(), APP);
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("sms:11\npong robin\n", run.stdout());
  }

  private List<Event> runEarly(String mode, String expectedOut) throws Exception {
    Path queue = tmp.resolve("queue-" + mode);
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            null,
            List.of(
                "-Dvigil.queue.dir=" + queue,
                "-Dvigil.methods.include=dev.vigil.it.apps.early.Channel[send]",
                "-Dvigil.debug.startup=true",
                "-javaagent:" + agentJar(HoldStartAgent.class),
                "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
            ChildJvm.applicationClassPath(),
            APP,
            mode);
    assertEquals(0, run.exit(), run.stderr());
    assertEquals(expectedOut, run.stdout());
    List<String> lines = run.vigilLines();
    assertEquals(2, lines.size(), run.stderr());
    assertTrue(lines.get(0).startsWith("[vigil] premain returned in "), lines.get(0));
    Matcher held = HELD.matcher(lines.get(1));
    assertTrue(
        held.find() && Integer.parseInt(held.group(1)) >= 1,
        "the first tool class was held back until the instrumentation was ready: " + lines.get(1));
    return ChildJvm.readQueue(queue);
  }

  /** A jar whose manifest names {@code agent} as its agent, with the class in it. */
  private Path agentJar(Class<?> agent) throws IOException {
    Path jar = tmp.resolve(agent.getSimpleName() + ".jar");
    if (Files.exists(jar)) {
      return jar;
    }
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().putValue("Premain-Class", agent.getName());
    String entry = agent.getName().replace('.', '/') + ".class";
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest);
        InputStream in = agent.getClassLoader().getResourceAsStream(entry)) {
      out.putNextEntry(new JarEntry(entry));
      in.transferTo(out);
      out.closeEntry();
    }
    return jar;
  }
}
