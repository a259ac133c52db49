package dev.vigil.adapt.code;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The receipt-gating half of {@link TZReceiptStrategy}: a method that obtains a future of a
 * confirmation ({@link ReceiptCandidates}) and goes on to report success without waiting for it now
 * waits, with a bound, through the future it already has.
 *
 * <p>Right after the statement that obtains the future, the gate inserts a bounded wait ({@code
 * future.get(30, TimeUnit.SECONDS)}, {@code toCompletableFuture()} first for a {@code
 * CompletionStage}); a future the code dropped is kept in a new {@code var} first. On timeout,
 * failure or interruption a method returning text returns a "Pending: …"/"Failed: …" message, a
 * {@code boolean} one returns {@code false}, a {@code void} one throws {@link
 * IllegalStateException}; other return types, methods that return the future itself, lambdas and
 * anonymous classes are left alone with a note. One gate per method: the first confirmation it
 * obtains.
 */
final class ReceiptGate {
  private static final Set<String> TEXT_TYPES =
      Set.of("String", "CharSequence", "Object", "java.lang.String");

  private final String file;
  private final JavaFile java;
  private final JavaRepo repo;
  private final List<String> changes;
  private final List<String> notes;
  private final Duration timeout;

  ReceiptGate(
      String file,
      JavaFile java,
      JavaRepo repo,
      List<String> changes,
      List<String> notes,
      Duration timeout) {
    this.file = file;
    this.java = java;
    this.repo = repo;
    this.changes = changes;
    this.notes = notes;
    this.timeout = timeout;
  }

  /**
   * False when {@code source} has neither a future type nor a call to a repository method returning
   * one.
   */
  static boolean mayApply(String source, JavaRepo repo) {
    return FutureMethods.FUTURE_TYPES.stream().anyMatch(source::contains)
        || repo.mayCallReceiptFutures(source);
  }

  /** Rewrites the file; returns how many methods were gated. */
  int rewrite() {
    Map<String, String> declaredTypes = Syntax.declaredTypes(java.unit());
    List<Node> callables =
        java.unit()
            .findAll(
                Node.class,
                n -> n instanceof MethodDeclaration || n instanceof ConstructorDeclaration);
    int gated = 0;
    for (Node node : callables) {
      CallableDeclaration<?> m = (CallableDeclaration<?>) node;
      for (ReceiptCandidates.Candidate c : ReceiptCandidates.in(m, java, repo, declaredTypes)) {
        String why = refusal(m, c);
        int line = Layout.line(c.statement());
        if (why != null) {
          if (!why.isEmpty()) {
            notes.add(file + ":" + line + ": `" + Syntax.shorten(c.call()) + "` " + why);
          }
          continue;
        }
        gate((MethodDeclaration) m, c);
        if (gated++ == 0) {
          Imports.ensure(
              java,
              "java.util.concurrent.ExecutionException",
              "java.util.concurrent.TimeUnit",
              "java.util.concurrent.TimeoutException");
        }
        String type = returnType(m);
        changes.add(
            file
                + ":"
                + line
                + ": `"
                + Syntax.shorten(c.call())
                + "` yields a future of the "
                + "confirmation that `"
                + m.getNameAsString()
                + "` did not wait for; it now waits for it (at most "
                + human(timeout)
                + ") before reporting success, and reports "
                + (TEXT_TYPES.contains(type)
                    ? "pending or failed"
                    : type.equals("void") ? "an exception" : "false")
                + " otherwise");
        break;
      }
    }
    return gated;
  }

  /** Why a candidate is left alone: null to gate it, empty to skip it without a note. */
  private String refusal(CallableDeclaration<?> m, ReceiptCandidates.Candidate c) {
    if (!(m instanceof MethodDeclaration)) {
      return "";
    }
    if (c.variable() != null && ReceiptCandidates.waitedFor(c.variable(), c.statement(), m)) {
      return "";
    }
    String type = returnType(m);
    if (type.matches(".*\\b(?:CompletableFuture|CompletionStage|Future|ListenableFuture)\\b.*")) {
      return "";
    }
    if (!Syntax.directlyIn(c.statement(), m)
        || !JavaFile.hasSiblings(c.statement())
        || !Layout.aloneOnItsLines(c.statement())) {
      return "yields a confirmation nobody waits for, inside a lambda or sharing its line; left unchanged";
    }
    if (!TEXT_TYPES.contains(type) && !type.equals("void") && !type.matches("boolean|Boolean")) {
      return "yields a confirmation nobody waits for, but `"
          + m.getNameAsString()
          + "` returns "
          + type
          + ", which has no way to say \"pending\"; left unchanged";
    }
    return null;
  }

  private static String returnType(CallableDeclaration<?> m) {
    return m instanceof MethodDeclaration method ? method.getType().toString() : "";
  }

  private void gate(MethodDeclaration m, ReceiptCandidates.Candidate c) {
    String indent = java.layout().indentOf(c.statement());
    String unit = java.layout().indentUnit();
    Set<String> taken = Syntax.namesIn(m);
    String e = Syntax.fresh(taken, "e");
    String variable = c.variable();
    if (variable == null) {
      variable = Syntax.fresh(taken, baseName(c.typeArgument()));
      ExpressionStmt kept =
          (ExpressionStmt)
              java.statement(
                  "var " + variable + " = " + java.text(c.statement().getExpression()) + ";");
      java.replace(c.statement().getExpression(), kept.getExpression());
    }
    String wait =
        c.futureType().equals("CompletionStage") ? variable + ".toCompletableFuture()" : variable;
    String amount =
        timeout.toMillis() % 1000 == 0
            ? timeout.toSeconds() + ", TimeUnit.SECONDS"
            : timeout.toMillis() + ", TimeUnit.MILLISECONDS";
    Reactions r = reactions(m.getType().toString(), e);
    List<String> lines = new ArrayList<>();
    lines.add("try {");
    lines.add(indent + unit + wait + ".get(" + amount + ");");
    lines.add(indent + "} catch (TimeoutException " + e + ") {");
    r.onTimeout().forEach(s -> lines.add(indent + unit + s));
    lines.add(indent + "} catch (ExecutionException " + e + ") {");
    r.onFailure().forEach(s -> lines.add(indent + unit + s));
    lines.add(indent + "} catch (InterruptedException " + e + ") {");
    r.onInterrupt().forEach(s -> lines.add(indent + unit + s));
    lines.add(indent + "}");
    java.insertAfter(
        c.statement(),
        java.statement(String.join("\n", lines)),
        "Report success only once the confirmation is in; wait for it at most "
            + human(timeout)
            + ".");
  }

  /**
   * What the gated method does when the confirmation does not come: the statements of each catch.
   *
   * @param onTimeout when it does not come within the timeout
   * @param onFailure when it fails
   * @param onInterrupt when the wait is interrupted
   */
  private record Reactions(
      List<String> onTimeout, List<String> onFailure, List<String> onInterrupt) {}

  /**
   * The reactions for a method returning {@code type}: a text saying pending or failed, an
   * exception for {@code void}, {@code false} for a boolean.
   *
   * @param e the caught exception's name
   */
  private Reactions reactions(String type, String e) {
    List<String> onTimeout;
    List<String> onFailure;
    List<String> onInterrupt;
    if (TEXT_TYPES.contains(type)) {
      onTimeout =
          List.of(
              "return \"Pending: not confirmed within "
                  + human(timeout)
                  + ", so not reported as done yet.\";");
      onFailure = List.of("return \"Failed: not confirmed (\" + " + e + ".getCause() + \").\";");
      onInterrupt =
          List.of(
              "Thread.currentThread().interrupt();",
              "return \"Pending: interrupted before the confirmation arrived, so not reported as done yet.\";");
    } else if (type.equals("void")) {
      onTimeout =
          List.of(
              "throw new IllegalStateException(\"Not confirmed within "
                  + human(timeout)
                  + "\", "
                  + e
                  + ");");
      onFailure =
          List.of("throw new IllegalStateException(\"Not confirmed\", " + e + ".getCause());");
      onInterrupt =
          List.of(
              "Thread.currentThread().interrupt();",
              "throw new IllegalStateException(\"Interrupted before the confirmation arrived\", "
                  + e
                  + ");");
    } else {
      onTimeout = List.of("return false;");
      onFailure = List.of("return false;");
      onInterrupt = List.of("Thread.currentThread().interrupt();", "return false;");
    }
    return new Reactions(onTimeout, onFailure, onInterrupt);
  }

  /** A variable name after the confirmation's type: {@code Receipt} gives {@code receipt}. */
  private static String baseName(String typeArgument) {
    String type = ReceiptWords.first(typeArgument == null ? "" : typeArgument);
    if (type == null) {
      return "confirmation";
    }
    String simple = type.substring(type.lastIndexOf('.') + 1);
    return Character.toLowerCase(simple.charAt(0)) + simple.substring(1);
  }

  static String human(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}
