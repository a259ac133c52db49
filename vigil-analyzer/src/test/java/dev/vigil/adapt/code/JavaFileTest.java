package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.stmt.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the rewrites rely on when they print through JavaParser's LexicalPreservingPrinter:
 * untouched bytes stay, and the places where the printer alone would lay code out wrongly (blank
 * lines, a new first import, a replaced statement's comment, CRLF) come out as a person would write
 * them.
 */
class JavaFileTest {

  @Test
  void aFileLeftAloneIsPrintedAsItWasRead() {
    String source = "package p;\n\nclass A {\n  void f() {  a( 1 ,2 );   // odd\n  }\n}\n";
    JavaFile java = JavaFile.parse(source);
    java.edit();
    assertEquals(source, java.print());
  }

  @Test
  void theFirstImportsOfAFileGoBetweenBlankLinesUnderThePackageLine() {
    JavaFile java = JavaFile.parse("package p;\n\nclass A {}\n");
    Imports.ensure(java, "java.util.List", "java.io.IOException");
    assertEquals(
        "package p;\n\nimport java.io.IOException;\nimport java.util.List;\n\nclass A {}\n",
        java.print());
  }

  @Test
  void aNewFirstImportGoesAfterTheBlankLineAndTheRestKeepTheirPlaces() {
    JavaFile java =
        JavaFile.parse(
            "package p;\n\nimport java.net.URI;\nimport java.util.List;\n\nclass A {}\n");
    Imports.ensure(java, "java.io.IOException", "java.time.Instant", "java.util.List");
    assertEquals(
        "package p;\n\nimport java.io.IOException;\nimport java.net.URI;\nimport java.time.Instant;\n"
            + "import java.util.List;\n\nclass A {}\n",
        java.print());
  }

  @Test
  void anUnusedImportIsDroppedWithItsLine() {
    JavaFile java =
        JavaFile.parse(
            "package p;\n\nimport java.time.ZoneOffset;\nimport java.util.List;\n\n"
                + "class A {\n  List<String> names;\n}\n");
    Imports.dropIfUnused(java, "java.time.ZoneOffset");
    Imports.dropIfUnused(java, "java.util.List");
    assertEquals(
        "package p;\n\nimport java.util.List;\n\nclass A {\n  List<String> names;\n}\n",
        java.print());
  }

  @Test
  void statementsReplacingTheFirstOfABlockKeepItsIndentationAndComment() {
    JavaFile java =
        JavaFile.parse(
            "class A {\n  int f() {\n    // the answer\n    int x = g();\n    return x;\n  }\n}\n");
    Statement old =
        java.unit()
            .findFirst(MethodDeclaration.class)
            .orElseThrow()
            .getBody()
            .orElseThrow()
            .getStatement(0);
    java.replace(
        old,
        List.of(
            java.statement("int x;"),
            java.statement("for (;;) {\n      x = g();\n      break;\n    }")));
    assertEquals(
        "class A {\n  int f() {\n    // the answer\n    int x;\n    for (;;) {\n      x = g();\n      break;\n"
            + "    }\n    return x;\n  }\n}\n",
        java.print());
  }

  @Test
  void addedMembersFollowABlankLineWithNothingOnIt() {
    JavaFile java = JavaFile.parse("class A {\n  void f() {}\n}\n");
    TypeDeclaration<?> type = java.unit().getType(0);
    java.addMember(type, "One.", "static final int ONE = 1;");
    java.addMember(type, "Two.", "static int two() {\n    return 2;\n  }");
    assertEquals(
        "class A {\n  void f() {}\n\n  /** One. */\n  static final int ONE = 1;\n\n  /** Two. */\n"
            + "  static int two() {\n    return 2;\n  }\n}\n",
        java.print());
  }

  @Test
  void aCrlfFileGetsCrlfInEverythingAdded() {
    JavaFile java = JavaFile.parse("class A {\r\n  void f() {\r\n    g();\r\n  }\r\n}\r\n");
    Statement g =
        java.unit()
            .findFirst(MethodDeclaration.class)
            .orElseThrow()
            .getBody()
            .orElseThrow()
            .getStatement(0);
    java.insertAfter(g, java.statement("try {\n      h();\n    } finally {\n    }"), "Then h.");
    java.addMember(java.unit().getType(0), "K.", "static final int K = 1;");
    String printed = java.print();
    assertTrue(printed.contains("    // Then h.\r\n    try {\r\n      h();\r\n"), printed);
    assertEquals(
        -1, printed.replace("\r\n", "").indexOf('\n'), "every line break is CRLF: " + printed);
  }

  @Test
  void aSourceJavaParserCannotReadIsRefusedWithItsLine() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> JavaFile.parse("class A {\n  void f( {\n}\n"));
    assertTrue(e.getMessage().startsWith("line 2: "), e.getMessage());
  }
}
