package dev.vigil.adapt.code;

import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a method obtains a future of a confirmation, for {@link ReceiptGate}: a local declared as
 * {@code CompletableFuture<T>}, {@code CompletionStage<T>} or {@code Future<T>}, or with {@code
 * var} from a call to a method of the repository that returns one, where the type argument, the
 * variable or the initializer has a receipt word ({@link ReceiptWords}); or a call to such a
 * repository method made as a statement of its own (its future ignored). And whether a later use
 * waits for the future: it calls {@code get}, {@code join}, {@code getNow}, {@code isDone}, {@code
 * orTimeout}, … or hands the future on (an argument, a return, an assignment); registering a
 * callback ({@code thenAccept}, {@code whenComplete}) is not waiting.
 */
final class ReceiptCandidates {
  private static final Set<String> WAITS =
      Set.of(
          "get",
          "join",
          "getNow",
          "isDone",
          "resultNow",
          "state",
          "isCompletedExceptionally",
          "orTimeout",
          "completeOnTimeout",
          "cancel",
          "isCancelled",
          "toCompletableFuture");

  /**
   * A statement that obtains a future of a confirmation.
   *
   * @param statement the declaration, or the call whose future is dropped
   * @param variable the local holding the future, or null when the call's future is dropped
   * @param futureType {@code CompletableFuture}, {@code CompletionStage}, …
   * @param typeArgument the future's type argument, as written
   * @param call the code that yields the future, for notes
   */
  record Candidate(
      ExpressionStmt statement,
      String variable,
      String futureType,
      String typeArgument,
      String call) {}

  private ReceiptCandidates() {}

  /**
   * The candidates in the body of {@code callable} (not in its local or anonymous classes), in
   * order.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  static List<Candidate> in(
      CallableDeclaration<?> callable,
      JavaFile java,
      JavaRepo repo,
      Map<String, String> declaredTypes) {
    Node body = Syntax.body(callable).orElse(null);
    if (body == null) {
      return List.of();
    }
    List<Candidate> found = new ArrayList<>();
    for (VariableDeclarator v : body.findAll(VariableDeclarator.class)) {
      ExpressionStmt statement = declaration(v);
      if (statement == null || Syntax.callableOf(v).orElse(null) != callable) {
        continue;
      }
      Candidate c = declared(v, statement, java, repo, declaredTypes);
      if (c != null) {
        found.add(c);
      }
    }
    for (MethodCallExpr call : body.findAll(MethodCallExpr.class)) {
      if (Syntax.callableOf(call).orElse(null) != callable || !Syntax.isIgnoredCall(call)) {
        continue;
      }
      FutureMethods.FutureMethod called = repo.futureCall(call, declaredTypes);
      if (called != null && called.ofReceipt()) {
        found.add(
            new Candidate(
                (ExpressionStmt) call.getParentNode().orElseThrow(),
                null,
                called.futureType(),
                called.typeArgument(),
                java.text(call).strip()));
      }
    }
    found.sort(Comparator.comparing(c -> c.statement().getBegin().orElseThrow()));
    return found;
  }

  /**
   * The candidate a variable declaration makes: a future of a receipt-like type, or named or
   * initialized like a receipt; or a {@code var} initialized by a call of a future method that
   * yields a receipt or whose variable is named like one.
   *
   * @return the candidate, or null when the declaration is none
   */
  private static Candidate declared(
      VariableDeclarator v,
      ExpressionStmt statement,
      JavaFile java,
      JavaRepo repo,
      Map<String, String> declaredTypes) {
    Expression init = v.getInitializer().orElseThrow();
    if (v.getType() instanceof ClassOrInterfaceType c
        && FutureMethods.FUTURE_TYPES.contains(c.getNameAsString())
        && c.getTypeArguments().isPresent()) {
      String typeArgument =
          c.getTypeArguments().get().stream().map(Type::toString).collect(Collectors.joining(", "));
      if (ReceiptWords.in(typeArgument)
          || ReceiptWords.in(v.getNameAsString())
          || ReceiptWords.in(String.join(" ", Syntax.identifiers(List.of(init))))) {
        return new Candidate(
            statement,
            v.getNameAsString(),
            c.getNameAsString(),
            typeArgument,
            java.text(init).strip());
      }
    } else if (v.getType().isVarType() && init instanceof MethodCallExpr call) {
      FutureMethods.FutureMethod called = repo.futureCall(call, declaredTypes);
      if (called != null && (called.ofReceipt() || ReceiptWords.in(v.getNameAsString()))) {
        return new Candidate(
            statement,
            v.getNameAsString(),
            called.futureType(),
            called.typeArgument(),
            java.text(init).strip());
      }
    }
    return null;
  }

  /**
   * The statement declaring {@code v} with an initializer, or null when it is declared elsewhere.
   */
  private static ExpressionStmt declaration(VariableDeclarator v) {
    return v.getInitializer().isPresent()
            && v.getParentNode().orElse(null) instanceof VariableDeclarationExpr d
            && d.getParentNode().orElse(null) instanceof ExpressionStmt s
        ? s
        : null;
  }

  /**
   * True when the future in {@code variable}, declared by {@code statement}, is waited for or
   * handed on later.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  static boolean waitedFor(
      String variable, ExpressionStmt statement, CallableDeclaration<?> callable) {
    Position after = statement.getEnd().orElseThrow();
    Node body = Syntax.body(callable).orElseThrow();
    for (NameExpr use : body.findAll(NameExpr.class)) {
      if (!use.getNameAsString().equals(variable)
          || !use.getBegin().map(b -> b.isAfter(after)).orElse(false)) {
        continue;
      }
      if (!(use.getParentNode().orElse(null) instanceof MethodCallExpr call
              && call.getScope().orElse(null) == use)
          || WAITS.contains(call.getNameAsString())
          || chainJoins(call)) {
        return true;
      }
    }
    return false;
  }

  /**
   * True when a call chained on {@code call} ({@code f.thenApply(…).join()}) is {@code join} or
   * {@code get}.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  private static boolean chainJoins(MethodCallExpr call) {
    Node n = call;
    while (n.getParentNode().orElse(null) instanceof MethodCallExpr outer
        && outer.getScope().orElse(null) == n) {
      if (outer.getNameAsString().equals("join") || outer.getNameAsString().equals("get")) {
        return true;
      }
      n = outer;
    }
    return false;
  }
}
