package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a short process's start with Vigil loads, read from the JVM's class-loading log, from {@code
 * premain} to the spill file written at exit: calls whose values are strings, numbers and booleans
 * are encoded without Jackson's mapper (building it loads hundreds of classes; docs/AGENT.md,
 * "Start-up"), no lambda class of Vigil's is made and the JDK's process machinery is not started
 * (docs/DESIGN.md#the-start-path). Counts of what the JVM did, not times.
 */
class StartPathIT {
  @TempDir Path tmp;

  @Test
  void aShortProcessBuildsNoMapperLinksNoLambdaOfVigilsAndStartsNoProcessMachinery()
      throws Exception {
    Path queue = tmp.resolve("queue");
    Path log = tmp.resolve("class-load.log");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",queue.open-delay-ms=600000",
            List.of(
                "-Dvigil.methods.include=dev.vigil.it.apps.PlainApp$Backend[send,confirm];"
                    + "dev.vigil.it.apps.PlainApp$Clock[*]",
                "-Xlog:class+load=info:file=" + log),
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.PlainApp");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("r-11 true\n12:00 UTC 12\n", run.stdout());
    assertEquals(4, ChildJvm.readQueue(queue).size(), "the four calls, spilled at exit");

    List<String> loaded = Files.readAllLines(log, StandardCharsets.UTF_8);
    assertTrue(
        loaded.stream().anyMatch(l -> l.contains(" dev.vigil.observe.EventEncoder ")),
        "the log names the classes Vigil loaded");
    assertEquals(
        List.of(),
        loaded.stream()
            .filter(l -> l.contains(" com.fasterxml.jackson.databind.ObjectMapper "))
            .toList());
    assertEquals(
        List.of(),
        loaded.stream().filter(l -> l.contains(" dev.vigil.") && l.contains("$$Lambda$")).toList(),
        "lambda classes made for Vigil's code");
    assertTrue(
        loaded.stream().noneMatch(l -> l.contains(" java.lang.ProcessHandleImpl ")),
        "the JDK's process machinery was started");
  }
}
