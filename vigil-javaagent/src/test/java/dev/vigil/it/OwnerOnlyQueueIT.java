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
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.HostSafetyApp$Service[*]",
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.HostSafetyApp",
            "plain");
    assertEquals(3, run.exit(), run.stderr());
    assertEquals(2, ChildJvm.readQueue(queue).size());
    assertEquals("rwx------", mode(tmp.resolve("var")));
    assertEquals("rwx------", mode(queue));
    List<Path> files;
    try (Stream<Path> s = Files.list(queue)) {
      files = s.toList();
    }
    assertFalse(files.isEmpty());
    for (Path f : files) {
      assertEquals("rw-------", mode(f), f.toString());
    }
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
