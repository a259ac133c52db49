package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCheckTest {
  private static final String ORIGINAL = "one\ntwo\nthree\n";
  private static final String REVISED = "one\n2\nthree\n";

  @TempDir Path dir;

  private Path repo() throws Exception {
    return TestRepos.write(dir.resolve("repo"), "docs/n.txt", ORIGINAL);
  }

  @Test
  void passesWhenTheDiffAppliesAndReproducesTheRewrite() throws Exception {
    Path repo = repo();
    Map<String, String> before = TestRepos.checksums(repo);
    Check c =
        new DiffCheck("git", Duration.ofSeconds(30))
            .check(
                repo,
                DiffWriter.of("docs/n.txt", ORIGINAL, REVISED),
                Map.of("docs/n.txt", REVISED));
    assertEquals(Check.Outcome.PASSED, c.outcome(), c.detail());
    assertEquals(before, TestRepos.checksums(repo));
  }

  @Test
  void failsWhenTheFileOnDiskHasMoved() throws Exception {
    Path repo = repo();
    String diff = DiffWriter.of("docs/n.txt", "zero\ntwo\nthree\n", REVISED);
    Check c =
        new DiffCheck("git", Duration.ofSeconds(30))
            .check(repo, diff, Map.of("docs/n.txt", REVISED));
    assertEquals(Check.Outcome.FAILED, c.outcome());
    assertTrue(
        c.detail().startsWith("the diff does not apply: error: patch failed: docs/n.txt:1"),
        c.detail());
  }

  @Test
  void failsWhenTheResultIsNotWhatTheStrategyMeant() throws Exception {
    Check c =
        new DiffCheck("git", Duration.ofSeconds(30))
            .check(
                repo(),
                DiffWriter.of("docs/n.txt", ORIGINAL, REVISED),
                Map.of("docs/n.txt", "something else\n"));
    assertEquals(
        Check.failed(
            DiffCheck.NAME,
            "the diff applies, but docs/n.txt does not come out as the strategy rewrote it"),
        c);
  }

  @Test
  void refusesPathsOutsideTheRepository() throws Exception {
    String diff = "--- a/../escape.txt\n+++ b/../escape.txt\n@@ -1 +1 @@\n-x\n+y\n";
    Check c = new DiffCheck("git", Duration.ofSeconds(30)).check(repo(), diff, Map.of());
    assertEquals(Check.Outcome.FAILED, c.outcome());
    assertTrue(
        c.detail().startsWith("the diff names `../escape.txt`, which is not a file inside --repo"),
        c.detail());
    assertEquals(
        Check.failed(DiffCheck.NAME, "the diff names no file"),
        new DiffCheck("git", Duration.ofSeconds(30)).check(repo(), "not a diff\n", Map.of()));
  }

  @Test
  void withoutGitTheDiffIsAppliedWithJavaDiffUtilsAndTheNoteSaysSo() throws Exception {
    DiffCheck noGit = new DiffCheck(dir.resolve("no-such-git").toString(), Duration.ofSeconds(30));
    Check ok =
        noGit.check(
            repo(), DiffWriter.of("docs/n.txt", ORIGINAL, REVISED), Map.of("docs/n.txt", REVISED));
    assertEquals(Check.Outcome.PASSED, ok.outcome());
    assertTrue(ok.detail().startsWith("git is not on the PATH"), ok.detail());
    Check bad =
        noGit.check(
            repo(),
            DiffWriter.of("docs/n.txt", "zero\ntwo\nthree\n", REVISED),
            Map.of("docs/n.txt", REVISED));
    assertEquals(Check.Outcome.FAILED, bad.outcome(), bad.detail());
  }

  @Test
  void aFileTheDiffNamesMustExist() throws Exception {
    Files.delete(repo().resolve("docs/n.txt"));
    Check c =
        new DiffCheck("git", Duration.ofSeconds(30))
            .check(dir.resolve("repo"), DiffWriter.of("docs/n.txt", ORIGINAL, REVISED), Map.of());
    assertEquals(
        Check.failed(
            DiffCheck.NAME, "docs/n.txt does not exist under --repo " + dir.resolve("repo")),
        c);
  }

  @Test
  void aDiffWrittenElsewhereOnlyHasToParseAndApplyEvenWhenItCreatesAFile() throws Exception {
    String diff =
        """
        diff --git a/docs/new.txt b/docs/new.txt
        new file mode 100644
        --- /dev/null
        +++ b/docs/new.txt
        @@ -0,0 +1 @@
        +hello
        """
            + DiffWriter.of("docs/n.txt", ORIGINAL, REVISED);
    Path repo = repo();
    Map<String, String> before = TestRepos.checksums(repo);
    Check withGit = new DiffCheck("git", Duration.ofSeconds(30)).check(repo, diff, Map.of());
    assertEquals(
        Check.passed(DiffCheck.NAME, "applies to 2 files on disk (copied outside the repository)"),
        withGit);
    Check withoutGit =
        new DiffCheck(dir.resolve("no-such-git").toString(), Duration.ofSeconds(30))
            .check(repo, diff, Map.of());
    assertEquals(Check.Outcome.PASSED, withoutGit.outcome(), withoutGit.detail());
    assertEquals(before, TestRepos.checksums(repo));
  }

  @Test
  void refusesToRunWhenTheTemporaryDirectoryIsInsideTheRepository() throws Exception {
    String saved = System.getProperty("java.io.tmpdir");
    Path repo = repo();
    Map<String, String> before = TestRepos.checksums(repo);
    System.setProperty("java.io.tmpdir", repo.resolve("docs").toString());
    try {
      Check c =
          new DiffCheck("git", Duration.ofSeconds(30))
              .check(
                  repo,
                  DiffWriter.of("docs/n.txt", ORIGINAL, REVISED),
                  Map.of("docs/n.txt", REVISED));
      assertEquals(
          Check.failed(
              DiffCheck.NAME,
              "the temporary directory "
                  + repo.resolve("docs")
                  + " is inside"
                  + " --repo, and nothing may be written there; set java.io.tmpdir to a directory outside the repository"),
          c);
    } finally {
      System.setProperty("java.io.tmpdir", saved);
    }
    assertEquals(before, TestRepos.checksums(repo));
  }
}
