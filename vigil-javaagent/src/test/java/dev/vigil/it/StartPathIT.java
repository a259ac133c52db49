package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a short process's start with Vigil loads, read from the JVM's class-loading log: no lambda
 * class of Vigil's is made and the JDK's process machinery is not started, from {@code premain} to
 * the spill file written at exit (docs/DESIGN.md#the-start-path). A count of what the JVM did, not
 * a time.
 */
class StartPathIT {
  @TempDir Path tmp;

  @Test
  void aShortProcessThatSpillsLinksNoLambdaOfVigilsAndStartsNoProcessMachinery() throws Exception {
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
    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(4, events.size(), "the four calls, spilled at exit");

    List<String> loaded = Files.readAllLines(log);
    assertTrue(
        loaded.stream().anyMatch(l -> l.contains(" dev.vigil.observe.writer.EventWriter ")),
        "the log names the agent's classes");
    List<String> vigilLambdas = new ArrayList<>();
    for (String line : loaded) {
      if (line.contains(" dev.vigil.") && line.contains("$$Lambda$")) {
        vigilLambdas.add(line);
      }
    }
    assertEquals(List.of(), vigilLambdas, "lambda classes made for Vigil's code");
    assertTrue(
        loaded.stream().noneMatch(l -> l.contains(" java.lang.ProcessHandleImpl ")),
        "the JDK's process machinery was started");
  }
}
