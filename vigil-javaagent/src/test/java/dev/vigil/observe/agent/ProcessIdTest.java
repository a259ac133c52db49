package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pid Vigil writes is the one the JDK gives, however it was read. */
class ProcessIdTest {
  @TempDir Path tmp;

  @Test
  void theProcessIdIsTheJdksOne() {
    assertEquals(ProcessHandle.current().pid(), ProcessId.current());
  }

  @Test
  void aLinkThatNamesNoNumberIsNotTakenForOne() throws Exception {
    Path file = Files.writeString(tmp.resolve("self"), "123");
    assertEquals(-1, ProcessId.fromProc(file), "not a link");
    assertEquals(-1, ProcessId.fromProc(tmp.resolve("missing")));
    Path link = Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("not-a-number"));
    assertEquals(-1, ProcessId.fromProc(link));
    Path numbered = Files.createSymbolicLink(tmp.resolve("numbered"), Path.of("4242"));
    assertEquals(4242, ProcessId.fromProc(numbered));
  }
}
