package dev.vigil.adapt.code;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchTest {
  @Test
  void show(@TempDir Path dir) throws Exception {
    Path g = Path.of("/tmp/golden");
    Files.createDirectories(g);
    for (String[] c : new String[][] {{"receipt-service", "r"}, {"local-times", "t"}, {"http-client", "f"}}) {
      Path repo = TestRepos.copy(c[0], dir);
      Evidence e = c[1].equals("r") ? TestRepos.robinEvidence() : c[1].equals("t") ? TestRepos.timestampEvidence()
          : TestRepos.failureEvidence();
      CodeOutcome o = CodeProposals.propose(repo, e, dir.resolve("out-" + c[0]), Instant.parse("2026-11-22T12:00:00Z"));
      System.out.println(o.toJson().toPrettyString());
      for (Proposal p : o.written()) {
        Files.copy(p.diff(), g.resolve(c[0] + ".diff"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(p.pr(), g.resolve(c[0] + ".md"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      }
    }
  }
}
