package dev.vigil.adapt.code;

import com.github.javaparser.JavaToken;
import com.github.javaparser.TokenRange;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where code sits in the original text of a parsed file: the line of a node, the indentation of
 * that line, the file's indentation step, and whether a statement has its lines to itself. New code
 * is laid out with these, so that it reads like the code around it.
 */
final class Layout {
  private static final String DEFAULT_UNIT = "    ";

  private final CompilationUnit unit;
  private final String source;
  private final String[] lines;

  Layout(CompilationUnit unit, String source) {
    this.unit = unit;
    this.source = source;
    this.lines = source.split("\r\n|\n|\r", -1);
  }

  /** The original text. */
  String source() {
    return source;
  }

  /** The 1-based line a node begins on in the original text. */
  static int line(Node node) {
    return node.getBegin().orElseThrow().line;
  }

  /**
   * The leading white space of the line a node begins on (of the line with its name, for a type).
   */
  String indentOf(Node node) {
    Node at = node instanceof TypeDeclaration<?> type ? type.getName() : node;
    String text = lines[line(at) - 1];
    int i = 0;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return text.substring(0, i);
  }

  /**
   * The file's indentation step: how much deeper than its type the first member on a line of its
   * own is indented; four spaces when no type has one.
   */
  String indentUnit() {
    for (TypeDeclaration<?> type : unit.findAll(TypeDeclaration.class)) {
      Optional<BodyDeclaration<?>> first = type.getMembers().getFirst();
      if (first.isPresent() && line(first.get()) > line(type.getName())) {
        String member = indentOf(first.get());
        String outer = indentOf(type);
        if (member.startsWith(outer) && member.length() > outer.length()) {
          return member.substring(outer.length());
        }
      }
    }
    return DEFAULT_UNIT;
  }

  /**
   * True when nothing but white space and comments shares the node's first and last lines with it:
   * the node can be rewritten line by line.
   */
  static boolean aloneOnItsLines(Node node) {
    Optional<TokenRange> range = node.getTokenRange();
    return range.isPresent()
        && lineBoundary(range.get().getBegin(), JavaToken::getPreviousToken)
        && lineBoundary(range.get().getEnd(), JavaToken::getNextToken);
  }

  private static boolean lineBoundary(
      JavaToken from, Function<JavaToken, Optional<JavaToken>> step) {
    for (Optional<JavaToken> t = step.apply(from); t.isPresent(); t = step.apply(t.get())) {
      JavaToken.Category c = t.get().getCategory();
      if (c.isEndOfLine()) {
        return true;
      }
      if (!c.isWhitespaceButNotEndOfLine() && !c.isComment()) {
        return false;
      }
    }
    return true;
  }
}
