package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A call to a remote system that {@link RetryRewriter} retries, recognized by the declared type of
 * its receiver in the same file ({@link Syntax#declaredTypes}):
 *
 * <ul>
 *   <li>{@code HttpClient x} and {@code x.send(...)};
 *   <li>{@code Statement}/{@code PreparedStatement}/{@code CallableStatement x} and {@code
 *       x.executeQuery(...)}, {@code executeUpdate}, {@code executeLargeUpdate};
 *   <li>{@code RestTemplate x} and its {@code getForObject}, {@code exchange}, …, and {@code
 *       WebClient x} chains ending in {@code block()} (the call is the {@code block()}).
 * </ul>
 *
 * @param kind what is retried, and on which failures
 * @param call the call, as parsed
 */
record RemoteCall(Kind kind, MethodCallExpr call) {
  /**
   * The families of remote calls, with the exception their loop catches and the failures worth a
   * retry.
   */
  enum Kind {
    HTTP("IOException", "an I/O error or a 429/502/503/504 answer"),
    JDBC("SQLException", "a transient SQL failure"),
    SPRING("RuntimeException", "a timeout or an unavailable server");

    final String caught;
    final String retriedOn;

    Kind(String caught, String retriedOn) {
      this.caught = caught;
      this.retriedOn = retriedOn;
    }
  }

  private static final Set<String> JDBC_TYPES =
      Set.of("PreparedStatement", "CallableStatement", "Statement");
  private static final Set<String> JDBC_METHODS =
      Set.of("executeQuery", "executeUpdate", "executeLargeUpdate");
  private static final Set<String> REST_METHODS =
      Set.of(
          "getForObject",
          "getForEntity",
          "postForObject",
          "postForEntity",
          "postForLocation",
          "exchange",
          "put",
          "delete",
          "patchForObject",
          "execute");

  /** False when {@code source} names none of the receiver types, so that it need not be parsed. */
  static boolean mayBeIn(String source) {
    return source.contains("HttpClient")
        || source.contains("Statement")
        || source.contains("RestTemplate")
        || source.contains("WebClient");
  }

  /** The remote calls of a file, in the order they appear. */
  static List<RemoteCall> in(CompilationUnit unit) {
    Map<String, String> types = Syntax.declaredTypes(unit);
    List<RemoteCall> found = new ArrayList<>();
    for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
      String name = call.getNameAsString();
      String receiver = types.getOrDefault(Syntax.receiverName(call), "");
      if (name.equals("send") && receiver.equals("HttpClient")) {
        found.add(new RemoteCall(Kind.HTTP, call));
      } else if (JDBC_METHODS.contains(name) && JDBC_TYPES.contains(receiver)) {
        found.add(new RemoteCall(Kind.JDBC, call));
      } else if ((REST_METHODS.contains(name) && receiver.equals("RestTemplate"))
          || (name.equals("block")
              && types
                  .getOrDefault(Syntax.receiverName(chainStart(call)), "")
                  .equals("WebClient"))) {
        found.add(new RemoteCall(Kind.SPRING, call));
      }
    }
    found.sort(Comparator.comparing(c -> c.call().getBegin().orElseThrow()));
    return found;
  }

  /**
   * The first call of a chain: {@code web.get()} in {@code web.get().uri(u).retrieve()…block()}.
   */
  private static MethodCallExpr chainStart(MethodCallExpr call) {
    MethodCallExpr first = call;
    while (first.getScope().orElse(null) instanceof MethodCallExpr inner) {
      first = inner;
    }
    return first;
  }

  /** The call's code as it reads now. */
  String text(JavaFile java) {
    return java.text(call);
  }

  /** True when {@code e} is this call. */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  boolean is(Expression e) {
    return e == call;
  }
}
