package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An application with an older Jackson and Byte Buddy of its own runs with identical output under
 * the agent.
 */
class IsolationIT {
  @TempDir Path tmp;

  @Test
  void applicationsOwnJacksonAndByteBuddyAreUntouched() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = System.getProperty("vigil.it.classes") + File.pathSeparator + oldLibraries();
    ChildJvm.Run without =
        ChildJvm.run(ChildJvm.java(), null, cp, "dev.vigil.it.apps.IsolationApp");
    ChildJvm.Run with =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.IsolationApp[describe]",
            cp,
            "dev.vigil.it.apps.IsolationApp");
    assertEquals(0, without.exit(), without.stderr());
    assertTrue(
        without.stdout().contains("jackson jackson-databind-2.12.7.1.jar"), without.stdout());
    assertTrue(without.stdout().contains("byte-buddy byte-buddy-1.10.22.jar"), without.stdout());
    assertEquals(without.exit(), with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertEquals(without.stderr(), with.stderr());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(
        List.of("jackson jackson-databind-2.12.7.1.jar", "byte-buddy byte-buddy-1.10.22.jar"),
        events.stream().map(e -> e.payload().path("result").asText()).toList());
  }

  private static String oldLibraries() throws IOException {
    try (Stream<Path> jars = Files.list(Path.of(System.getProperty("vigil.it.libs")))) {
      return jars.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
    }
  }
}
