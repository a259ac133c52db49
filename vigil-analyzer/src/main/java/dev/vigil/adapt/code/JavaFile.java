package dev.vigil.adapt.code;

import com.github.javaparser.JavaParser;
import com.github.javaparser.ParseResult;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.Problem;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.body.BodyDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.comments.Comment;
import com.github.javaparser.ast.comments.LineComment;
import com.github.javaparser.ast.comments.TraditionalJavadocComment;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.stmt.BlockStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.printer.lexicalpreservation.LexicalPreservingPrinter;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One Java source parsed by JavaParser for a rewrite, and printed back by its {@link
 * LexicalPreservingPrinter}: every byte the rewrite does not touch stays as it was, so the diff
 * shows only the change. New code is written as Java text in the file's own layout ({@link Layout})
 * and parsed into nodes ({@link #statement}, {@link #expression}, {@link #addMember}), so what is
 * added is exactly what was written, and valid Java. Rewrites work on text with {@code \n} line
 * breaks; a CRLF file gets CRLF in what is added.
 */
final class JavaFile {
  /** The newest Java the parser knows; it still reads every older source. */
  static final ParserConfiguration.LanguageLevel LANGUAGE =
      ParserConfiguration.LanguageLevel.JAVA_25;

  private final JavaParser parser = parser();
  private final CompilationUnit unit;
  private final Layout layout;
  private final BlankLines blankLines;
  private final String newline;
  private boolean preserving;

  private JavaFile(CompilationUnit unit, String source) {
    this.unit = unit;
    this.layout = new Layout(unit, source);
    boolean crlf = source.contains("\r\n") && source.replace("\r\n", "").indexOf('\n') < 0;
    this.newline = crlf ? "\r\n" : "\n";
    this.blankLines = new BlankLines(unit);
  }

  /**
   * Parses a source for a rewrite.
   *
   * @throws IllegalArgumentException when JavaParser cannot parse it, with the line and the reason
   */
  static JavaFile parse(String source) {
    return new JavaFile(parseUnit(source), source);
  }

  /**
   * Parses a source.
   *
   * @throws IllegalArgumentException when JavaParser cannot parse it, with the line and the reason
   */
  static CompilationUnit parseUnit(String source) {
    ParseResult<CompilationUnit> result = parser().parse(source);
    if (result.isSuccessful() && result.getResult().isPresent()) {
      return result.getResult().get();
    }
    Optional<Problem> problem = result.getProblems().stream().findFirst();
    String where =
        problem
            .flatMap(Problem::getLocation)
            .flatMap(l -> l.getBegin().getRange())
            .map(r -> "line " + r.begin.line + ": ")
            .orElse("");
    String message =
        problem.map(p -> p.getMessage().lines().findFirst().orElse("").strip()).orElse("no result");
    throw new IllegalArgumentException(
        where + (message.length() > 120 ? message.substring(0, 120) + "…" : message));
  }

  /** A parser with the language level of the rewrites. */
  private static JavaParser parser() {
    return new JavaParser(new ParserConfiguration().setLanguageLevel(LANGUAGE));
  }

  CompilationUnit unit() {
    return unit;
  }

  Layout layout() {
    return layout;
  }

  /**
   * The code of a node as it reads now (with the rewrite's changes so far), with {@code \n} line
   * breaks.
   */
  String text(Node node) {
    String code =
        preserving
            ? LexicalPreservingPrinter.print(node)
            : node.getTokenRange().map(Object::toString).orElseGet(node::toString);
    return code.replace("\r\n", "\n");
  }

  /** An expression written as Java text. */
  Expression expression(String code) {
    return snippet(code, parser::parseExpression);
  }

  /** A statement written as Java text; lines after the first carry their whole indentation. */
  Statement statement(String code) {
    return snippet(code, parser::parseStatement);
  }

  /**
   * Puts {@code replacement} where {@code old} was; a comment of {@code old} stays, above the
   * replacement.
   */
  void replace(Node old, Node replacement) {
    edit();
    Optional<Comment> comment = old.getComment();
    old.replace(replacement);
    comment.ifPresent(replacement::setComment);
  }

  /**
   * Puts {@code statements} where {@code old} was. A comment of {@code old} stays, above the first
   * of them; one at the end of its line moves there too. (The printer lays out a statement added
   * before the first one of a block, or next to one whose comment was taken away, with a wrong
   * indentation: so the first replaces {@code old} and the others follow it, and a comment is taken
   * away before, and put back after.)
   */
  void replace(Statement old, List<Statement> statements) {
    edit();
    Optional<Comment> comment = old.getComment();
    boolean trailing =
        comment.flatMap(Node::getBegin).flatMap(b -> old.getEnd().map(b::isAfter)).orElse(false);
    if (comment.isPresent() && !trailing) {
      old.removeComment();
    }
    old.replace(statements.get(0));
    for (int i = 1; i < statements.size(); i++) {
      addAfter(statements.get(i - 1), statements.get(i));
    }
    comment.ifPresent(statements.get(0)::setComment);
  }

  /**
   * Puts {@code added} right after {@code anchor} (after a comment that ends its line), with a line
   * comment.
   */
  void insertAfter(Statement anchor, Statement added, String lineComment) {
    edit();
    addAfter(anchor, added);
    added.setComment(new LineComment(" " + lineComment));
  }

  private static void addAfter(Statement anchor, Statement added) {
    NodeList<Statement> siblings = siblings(anchor);
    siblings.add(indexOf(siblings, anchor) + 1, added);
  }

  /**
   * The position of {@code s} among its siblings (by identity: equal statements are not the same).
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  private static int indexOf(NodeList<Statement> siblings, Statement s) {
    for (int i = 0; i < siblings.size(); i++) {
      if (siblings.get(i) == s) {
        return i;
      }
    }
    throw new IllegalStateException("the statement is not among its siblings");
  }

  /** Adds a member at the end of {@code type}, after a blank line, with a one-line Javadoc. */
  void addMember(TypeDeclaration<?> type, String javadoc, String code) {
    BodyDeclaration<?> member = snippet(code, parser::parseBodyDeclaration);
    type.getMembers().add(member);
    member.setComment(new TraditionalJavadocComment(" " + javadoc + " "));
    blankLines.beforeMember("/** " + javadoc + " */");
  }

  /** The statements a statement sits among: a block's, or a switch group's. */
  static NodeList<Statement> siblings(Statement s) {
    Node parent = s.getParentNode().orElseThrow();
    if (parent instanceof BlockStmt block) {
      return block.getStatements();
    }
    if (parent instanceof SwitchEntry entry) {
      return entry.getStatements();
    }
    throw new IllegalStateException(
        "a statement directly under " + parent.getClass().getSimpleName());
  }

  /** True when statements can be put next to {@code s}: it sits in a block or a switch group. */
  static boolean hasSiblings(Statement s) {
    Node parent = s.getParentNode().orElse(null);
    return parent instanceof BlockStmt
        || (parent instanceof SwitchEntry entry
            && entry.getType() == SwitchEntry.Type.STATEMENT_GROUP);
  }

  /**
   * The source with every change; the original bytes wherever nothing changed. In a CRLF file, the
   * printer's own line breaks (after a comment it adds) become CRLF too.
   */
  String print() {
    if (!preserving) {
      return layout.source();
    }
    String printed = blankLines.restore(LexicalPreservingPrinter.print(unit));
    return newline.equals("\r\n") ? printed.replaceAll("(?<!\r)\n", "\r\n") : printed;
  }

  /**
   * Starts recording changes; called before the first one, so that a file left alone costs only a
   * parse.
   */
  void edit() {
    if (!preserving) {
      LexicalPreservingPrinter.setup(unit);
      preserving = true;
    }
  }

  private <N extends Node> N snippet(String code, Function<String, ParseResult<N>> parse) {
    edit();
    ParseResult<N> result = parse.apply(code.replace("\n", newline));
    N node =
        result
            .getResult()
            .filter(n -> result.isSuccessful())
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "Vigil wrote Java that does not parse: "
                            + code
                            + " "
                            + result.getProblems()));
    return LexicalPreservingPrinter.setup(node);
  }
}
