package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffWriterTest {
  @TempDir Path dir;

  @Test
  void writesGitStyleHeadersAndThreeLinesOfContext() {
    String original = "1\n2\n3\n4\n5\n6\n7\n8\n";
    String revised = "1\n2\n3\n4\nfive\n6\n7\n8\n";
    assertEquals(
        """
        diff --git a/src/A.java b/src/A.java
        --- a/src/A.java
        +++ b/src/A.java
        @@ -2,7 +2,7 @@
         2
         3
         4
        -5
        +five
         6
         7
         8
        """,
        DiffWriter.of("src/A.java", original, revised));
    assertEquals("", DiffWriter.of("src/A.java", original, original));
  }

  @Test
  void marksALastLineWithoutLineBreakAsGitDoesAndTheDiffApplies() throws Exception {
    String original = "a\nb\nc";
    String revised = "a\nb\nC";
    String diff = DiffWriter.of("f.txt", original, revised);
    assertEquals(
        """
        diff --git a/f.txt b/f.txt
        --- a/f.txt
        +++ b/f.txt
        @@ -1,3 +1,3 @@
         a
         b
        -c
        \\ No newline at end of file
        +C
        \\ No newline at end of file
        """,
        diff);
    assertApplies(original, revised, diff);

    String longer = "a\nb\nc\nd\ne\nf\ng";
    String insertedEarly = "a\nB\nb\nc\nd\ne\nf\ng";
    assertApplies(longer, insertedEarly, DiffWriter.of("f.txt", longer, insertedEarly));
    String nearEnd = "a\nb\nc\nd\nE\nf\ng";
    assertApplies(longer, nearEnd, DiffWriter.of("f.txt", longer, nearEnd));
  }

  @Test
  void crlfLinesKeepTheirCarriageReturnsAndApply() throws Exception {
    String original = "a\r\nb\r\nc\r\n";
    String revised = "a\r\nB\r\nc\r\n";
    assertApplies(original, revised, DiffWriter.of("f.txt", original, revised));
  }

  private void assertApplies(String original, String revised, String diff) throws Exception {
    Path repo = Files.createTempDirectory(dir, "repo");
    Files.writeString(repo.resolve("f.txt"), original);
    Path patch = Files.writeString(dir.resolve("p.diff"), diff);
    TestRepos.git(repo, "apply", patch.toString());
    assertEquals(revised, Files.readString(repo.resolve("f.txt")));
  }
}
