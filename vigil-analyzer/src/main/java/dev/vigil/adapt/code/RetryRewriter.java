package dev.vigil.adapt.code;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ClassOrInterfaceDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.stmt.AssertStmt;
import com.github.javaparser.ast.stmt.DoStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ForEachStmt;
import com.github.javaparser.ast.stmt.ForStmt;
import com.github.javaparser.ast.stmt.IfStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.WhileStmt;
import com.github.javaparser.ast.stmt.YieldStmt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rewrite of {@link RetryErrorsStrategy}: each statement holding a {@link RemoteCall} is
 * wrapped in a loop of at most three attempts with jittered exponential backoff ({@link RetryLoop}:
 * 100-200 ms, then 200-400 ms), and the few helpers the loop needs are added at the end of the
 * outermost class ({@link RetryHelpers}).
 *
 * <p>The statement may be a declaration, an assignment, a {@code return} or an expression
 * statement. Statements in lambdas, conditions or resources, statements sharing a line, methods
 * that already speak of retries or backoff, and interfaces are left alone with a note.
 */
final class RetryRewriter {
  /** The constant and helper names the rewrite adds; a file that already has one is left alone. */
  static final List<String> ADDED_NAMES =
      List.of(
          "RETRY_MAX_ATTEMPTS",
          "backoffBeforeRetry",
          "isTransientStatus",
          "isTransient",
          "isTransientFailure");

  private static final Pattern RETRY_WORDS =
      Pattern.compile("(?i)retr(?:y|ies|ied)|attempt|backoff|back_off");

  private final String file;
  private final JavaFile java;
  private final List<String> changes;
  private final List<String> notes;

  RetryRewriter(String file, JavaFile java, List<String> changes, List<String> notes) {
    this.file = file;
    this.java = java;
    this.changes = changes;
    this.notes = notes;
  }

  /** Rewrites the file; returns how many statements were wrapped. */
  int rewrite() {
    List<RemoteCall> calls = RemoteCall.in(java.unit());
    if (calls.isEmpty() || declaresAnAddedName()) {
      return 0;
    }
    IdentityHashMap<CallableDeclaration<?>, Set<String>> taken = new IdentityHashMap<>();
    Set<CallableDeclaration<?>> retrying = Collections.newSetFromMap(new IdentityHashMap<>());
    readMethods(calls, taken, retrying);
    List<TypeDeclaration<?>> helped = new ArrayList<>();
    IdentityHashMap<TypeDeclaration<?>, Set<RemoteCall.Kind>> helpers = new IdentityHashMap<>();
    Set<Statement> wrapped = Collections.newSetFromMap(new IdentityHashMap<>());
    for (RemoteCall call : calls) {
      Statement stmt = Syntax.plainStatement(call.call());
      if (stmt != null && wrapped.contains(stmt)) {
        continue;
      }
      TypeDeclaration<?> outer = wrap(call, stmt, taken, retrying);
      if (outer == null) {
        continue;
      }
      wrapped.add(stmt);
      if (!helpers.containsKey(outer)) {
        helped.add(outer);
      }
      helpers.computeIfAbsent(outer, t -> EnumSet.noneOf(RemoteCall.Kind.class)).add(call.kind());
    }
    helped.forEach(t -> RetryHelpers.add(java, t, helpers.get(t)));
    return wrapped.size();
  }

  /** Whether the file already declares one of the {@link #ADDED_NAMES}; noted when it does. */
  private boolean declaresAnAddedName() {
    Set<String> names = Syntax.identifiers(List.of(java.unit()));
    for (String name : ADDED_NAMES) {
      if (names.contains(name)) {
        notes.add(file + ": already declares `" + name + "`; left unchanged");
        return true;
      }
    }
    return false;
  }

  /**
   * Reads each method that holds a call once: the names it uses into {@code taken}, and into {@code
   * retrying} when it already speaks of retries.
   */
  private static void readMethods(
      List<RemoteCall> calls,
      Map<CallableDeclaration<?>, Set<String>> taken,
      Set<CallableDeclaration<?>> retrying) {
    for (RemoteCall call : calls) {
      Syntax.callableOf(call.call())
          .filter(m -> !taken.containsKey(m))
          .ifPresent(
              m -> {
                taken.put(m, Syntax.namesIn(m));
                if (RETRY_WORDS.matcher(String.join(" ", Syntax.identifiers(List.of(m)))).find()) {
                  retrying.add(m);
                }
              });
    }
  }

  /**
   * Replaces the statement holding the call by its retry loop, with a change line; or notes why it
   * is left alone.
   *
   * @param stmt the plain statement holding the call, or null when it is not one
   * @return the outermost type, which is to get the helpers, or null when the statement was left
   *     alone
   */
  private TypeDeclaration<?> wrap(
      RemoteCall call,
      Statement stmt,
      Map<CallableDeclaration<?>, Set<String>> taken,
      Set<CallableDeclaration<?>> retrying) {
    int line = Layout.line(call.call());
    String callText = Syntax.shorten(call.text(java));
    CallableDeclaration<?> m = Syntax.callableOf(call.call()).orElse(null);
    if (m == null || stmt == null) {
      notes.add(
          file
              + ":"
              + line
              + ": `"
              + callText
              + "` is not a plain statement of a method body; left"
              + " unchanged");
      return null;
    }
    String why = refusal(m, stmt, retrying.contains(m));
    TypeDeclaration<?> outer = Syntax.outermostType(call.call()).orElse(null);
    if (why == null
        && (outer == null || (outer instanceof ClassOrInterfaceDeclaration c && c.isInterface()))) {
      why = "sits in an interface, which cannot hold the retry constant";
    }
    List<String> loop = why == null ? RetryLoop.write(java, call, stmt, taken.get(m)) : null;
    if (why == null && loop == null) {
      why = "is declared with `var` and a type Vigil cannot name";
    }
    if (why != null) {
      notes.add(file + ":" + line + ": `" + callText + "` " + why + "; left unchanged");
      return null;
    }
    java.replace(stmt, loop.stream().map(java::statement).toList());
    changes.add(
        file
            + ":"
            + line
            + ": `"
            + callText
            + "` is retried up to 3 times on "
            + call.kind().retriedOn
            + ", waiting 100-200 ms before the second attempt and 200-400 ms before the third (exponential backoff"
            + " with jitter)");
    return outer;
  }

  /** Why a statement is left alone, or null. */
  private String refusal(CallableDeclaration<?> m, Statement stmt, boolean retrying) {
    String keyword = keyword(stmt);
    if (keyword != null) {
      return "is part of a `" + keyword + "` statement";
    }
    if (!Syntax.directlyIn(stmt, m)) {
      return "sits in a lambda or an anonymous class";
    }
    if (!Layout.aloneOnItsLines(stmt)) {
      return "shares its line with other code";
    }
    if (retrying) {
      return "is in `" + m.getNameAsString() + "`, which already speaks of retries";
    }
    return null;
  }

  /**
   * The keyword of the statement that {@code stmt} is part of, or null when it stands on its own in
   * a block.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  private static String keyword(Statement stmt) {
    if (stmt instanceof ThrowStmt) {
      return "throw";
    }
    if (stmt instanceof YieldStmt) {
      return "yield";
    }
    if (stmt instanceof AssertStmt) {
      return "assert";
    }
    if (stmt instanceof ExpressionStmt es && es.getExpression() instanceof ObjectCreationExpr) {
      return "new";
    }
    if (JavaFile.hasSiblings(stmt)) {
      return null;
    }
    Node parent = stmt.getParentNode().orElseThrow();
    if (parent instanceof IfStmt ifStmt) {
      return ifStmt.getElseStmt().orElse(null) == stmt ? "else" : "if";
    }
    if (parent instanceof ForStmt || parent instanceof ForEachStmt) {
      return "for";
    }
    if (parent instanceof WhileStmt) {
      return "while";
    }
    if (parent instanceof DoStmt) {
      return "do";
    }
    return parent instanceof SwitchEntry ? "case" : parent.getClass().getSimpleName();
  }
}
