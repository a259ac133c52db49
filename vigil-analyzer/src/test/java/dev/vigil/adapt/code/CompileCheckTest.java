package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompileCheckTest {
  private static final String A =
      "package p;\n\npublic class A {\n  public int one() {\n    return 1;\n  }\n}\n";
  private static final String B =
      "package p;\n\nclass B {\n  int two() {\n    return new A().one() * 2;\n  }\n}\n";

  @TempDir Path dir;

  @Test
  void passesWhenThePatchedFilesCompileAgainstTheRest() throws Exception {
    JavaRepo repo =
        JavaRepo.scan(
            TestRepos.write(
                dir,
                "src/p/A.java",
                A,
                "src/p/B.java",
                B,
                "src/test/java/p/ATest.java",
                "class ATest { org.junit.Test t; }"));
    assertEquals(
        Check.passed(
            CompileCheck.NAME,
            "2 sources compiled in memory with javax.tools, the patched ones" + " included"),
        new CompileCheck(List.of()).check(repo, Map.of("src/p/A.java", A.replace("1;", "10;"))));
  }

  @Test
  void failsNamingTheFileLineAndMessage() throws Exception {
    JavaRepo repo = JavaRepo.scan(TestRepos.write(dir, "src/p/A.java", A, "src/p/B.java", B));
    Check c =
        new CompileCheck(List.of())
            .check(repo, Map.of("src/p/A.java", A.replace("int one()", "long one()")));
    assertEquals(
        Check.failed(
            CompileCheck.NAME,
            "the patched code does not compile: src/p/B.java:5: incompatible"
                + " types: possible lossy conversion from long to int"),
        c);
  }

  @Test
  void isSkippedWhenTheRepositoryDoesNotCompileOnItsOwnAndFailsWhenThePatchAddsAnError()
      throws Exception {
    String withLibrary =
        "package p;\n\nimport org.example.Missing;\n\nclass C {\n  Missing m;\n  int c() {\n"
            + "    return 3;\n  }\n}\n";
    JavaRepo repo =
        JavaRepo.scan(TestRepos.write(dir, "src/p/A.java", A, "src/p/C.java", withLibrary));
    Check skipped =
        new CompileCheck(List.of())
            .check(
                repo, Map.of("src/p/C.java", "\n" + withLibrary.replace("return 3;", "return 4;")));
    assertEquals(
        Check.skipped(
            CompileCheck.NAME,
            "compile check skipped: the repository does not compile on its"
                + " own here (2 errors, the first: src/p/C.java:3: package org.example does not exist), most likely for"
                + " want of its libraries on the class path; the patch adds no error of its own"),
        skipped);
    Check failed =
        new CompileCheck(List.of())
            .check(repo, Map.of("src/p/C.java", withLibrary.replace("return 3;", "return \"3\";")));
    assertEquals(
        Check.failed(
            CompileCheck.NAME,
            "the patched code does not compile: src/p/C.java:8: incompatible"
                + " types: java.lang.String cannot be converted to int"),
        failed);
  }
}
