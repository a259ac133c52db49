package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue the agent creates is its user's alone (docs/SECURITY.md): the directories it creates
 * are {@code 0700} and its files {@code 0600}, whatever the umask; the events hold what the tools
 * were given and returned.
 */
class OwnerOnlyQueueIT {
  @TempDir Path tmp;

  @Test
  void theQueueDirectoriesAre0700AndItsFiles0600() throws Exception {
    Assumptions.assumeTrue(
        tmp.getFileSystem().supportedFileAttributeViews().contains("posix"),
        "a file system without POSIX permissions");
    Path queue = tmp.resolve("var").resolve("queue");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir="
                + queue
                + ",queue.open-delay-ms=600000,methods.include=dev.vigil.it.apps.HostSafetyApp$Service[*]",
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.HostSafetyApp",
            "plain");
    assertEquals(3, run.exit(), run.stderr());
    assertOwnerOnly(queue); // the queue was never opened: the events are in a spill file
    assertEquals(2, ChildJvm.readQueue(queue).size());
    assertOwnerOnly(queue); // the queue created by their import
    assertEquals("rwx------", mode(tmp.resolve("var")));
  }

  /** Every directory under {@code queue} is {@code 0700}, every file {@code 0600}. */
  private static void assertOwnerOnly(Path queue) throws Exception {
    List<Path> all;
    try (Stream<Path> s = Files.walk(queue)) {
      all = s.toList();
    }
    assertFalse(all.stream().noneMatch(Files::isRegularFile), "files under " + queue);
    for (Path p : all) {
      assertEquals(Files.isDirectory(p) ? "rwx------" : "rw-------", mode(p), p.toString());
    }
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
