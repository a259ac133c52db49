package dev.vigil.adapt.code;

import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.VariableDeclarationExpr;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The code that replaces a statement holding a {@link RemoteCall}: a loop of at most {@code
 * RETRY_MAX_ATTEMPTS} attempts around it, catching the call's failures and, for HTTP, retrying on a
 * transient status. A declaration ({@code T v = call;}) is split so that {@code v} stays in scope
 * after the loop ({@code var} only where the type is known); a {@code return} returns from inside
 * the loop.
 */
final class RetryLoop {
  private RetryLoop() {}

  /**
   * The statements that replace {@code stmt}, as code in the file's layout (lines after the first
   * with their whole indentation), or null when a {@code var} declaration's type cannot be named.
   *
   * @param taken the names the method used before the rewrite ({@link Syntax#namesIn})
   */
  static List<String> write(JavaFile java, RemoteCall call, Statement stmt, Set<String> taken) {
    String indent = java.layout().indentOf(stmt);
    String unit = java.layout().indentUnit();
    String attempt = Syntax.fresh(taken, "attempt");
    String e = Syntax.fresh(taken, "e");
    String callText = call.text(java);
    Split split = split(java, call, stmt, callText);
    if (split == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    if (split.declaration() != null) {
      out.add(split.declaration());
    }
    List<String> body = tryBody(call, stmt, split, callText, attempt, unit, indent, taken);
    out.add(loop(call.kind(), body, attempt, e, unit, indent));
    return out;
  }

  /**
   * The statement as the loop attempts it.
   *
   * @param declaration the declaration kept before the loop ({@code T v;}), or null when the
   *     statement declares nothing
   * @param statement the statement inside the loop: the statement itself, or a declaration's
   *     assignment
   * @param response the variable the call's result is assigned to, or null
   */
  private record Split(String declaration, String statement, String response) {}

  /**
   * Splits a declaration ({@code T v = call;}) into {@code T v;} before the loop and {@code v =
   * call;} inside it, and names the variable the call's result goes to; null when a {@code var}
   * declaration's type cannot be named.
   */
  private static Split split(JavaFile java, RemoteCall call, Statement stmt, String callText) {
    String statement = java.text(stmt);
    if (stmt instanceof ExpressionStmt es
        && es.getExpression() instanceof VariableDeclarationExpr decl
        && decl.getVariables().size() == 1
        && decl.getVariable(0).getInitializer().isPresent()) {
      VariableDeclarator v = decl.getVariable(0);
      String type = java.text(v.getType());
      if (v.getType().isVarType()) {
        type = call.is(v.getInitializer().get()) ? knownType(java, call, callText) : null;
        if (type == null) {
          return null;
        }
      }
      String annotations =
          decl.getAnnotations().stream().map(a -> java.text(a) + " ").collect(Collectors.joining());
      String declaration = annotations + type + " " + v.getNameAsString() + ";";
      statement = v.getNameAsString() + " = " + java.text(v.getInitializer().get()).strip() + ";";
      return new Split(
          declaration, statement, call.is(v.getInitializer().get()) ? v.getNameAsString() : null);
    }
    if (stmt instanceof ExpressionStmt es
        && es.getExpression() instanceof AssignExpr a
        && a.getOperator() == AssignExpr.Operator.ASSIGN
        && call.is(a.getValue())) {
      return new Split(null, statement, java.text(a.getTarget()).strip());
    }
    return new Split(null, statement, null);
  }

  /**
   * The try block's statements: the statement (for HTTP, the call's response kept in a variable and
   * retried on a transient status) and the {@code break} out of the loop, unless the statement
   * returns.
   */
  private static List<String> tryBody(
      RemoteCall call,
      Statement stmt,
      Split split,
      String callText,
      String attempt,
      String unit,
      String indent,
      Set<String> taken) {
    List<String> body = new ArrayList<>();
    String statement = split.statement();
    String response = split.response();
    List<String> check = List.of();
    if (call.kind() == RemoteCall.Kind.HTTP) {
      if (response == null) {
        boolean bare = stmt instanceof ExpressionStmt es && call.is(es.getExpression());
        response = Syntax.fresh(taken, "sent");
        body.add("var " + response + " = " + callText + ";");
        statement = bare ? null : statement.replace(callText, response);
      }
      check =
          List.of(
              "if ("
                  + attempt
                  + " < RETRY_MAX_ATTEMPTS && isTransientStatus("
                  + response
                  + ".statusCode())) {",
              unit + "backoffBeforeRetry(" + attempt + ");",
              unit + "continue;",
              "}");
      if (!body.isEmpty()) {
        body.addAll(check);
        check = List.of();
      }
    }
    if (statement != null) {
      body.addAll(reindent(statement, indent));
    }
    body.addAll(check);
    if (!(stmt instanceof ReturnStmt)) {
      body.add("break;");
    }
    return body;
  }

  /**
   * The {@code for} loop of attempts around the try block, rethrowing the last or a permanent
   * failure.
   */
  private static String loop(
      RemoteCall.Kind kind,
      List<String> body,
      String attempt,
      String e,
      String unit,
      String indent) {
    String transientCheck =
        switch (kind) {
          case HTTP -> "";
          case JDBC -> " || !isTransient(" + e + ")";
          case SPRING -> " || !isTransientFailure(" + e + ")";
        };
    List<String> lines = new ArrayList<>();
    lines.add(unit + "try {");
    body.forEach(b -> lines.add(unit + unit + b));
    lines.add(unit + "} catch (" + kind.caught + " " + e + ") {");
    lines.add(unit + unit + "if (" + attempt + " >= RETRY_MAX_ATTEMPTS" + transientCheck + ") {");
    lines.add(unit + unit + unit + "throw " + e + ";");
    lines.add(unit + unit + "}");
    lines.add(unit + unit + "backoffBeforeRetry(" + attempt + ");");
    lines.add(unit + "}");
    lines.add("}");
    StringBuilder loop = new StringBuilder("for (int " + attempt + " = 1; ; " + attempt + "++) {");
    lines.forEach(l -> loop.append('\n').append(indent).append(l));
    return loop.toString();
  }

  /** The statement's lines, relative to the statement's own indentation. */
  private static List<String> reindent(String statement, String indent) {
    List<String> out = new ArrayList<>();
    String[] parts = statement.split("\n", -1);
    out.add(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      out.add(
          parts[i].startsWith(indent)
              ? parts[i].substring(indent.length())
              : parts[i].stripLeading());
    }
    return out;
  }

  /** The type a {@code var} declaration of a remote call's result has, when Vigil can name it. */
  private static String knownType(JavaFile java, RemoteCall call, String callText) {
    String compact = callText.replaceAll("\\s+", "");
    if (call.kind() == RemoteCall.Kind.HTTP) {
      if (compact.endsWith("ofString())")) {
        return "HttpResponse<String>";
      }
      if (compact.endsWith("ofByteArray())")) {
        return "HttpResponse<byte[]>";
      }
      return compact.endsWith("discarding())") ? "HttpResponse<Void>" : null;
    }
    if (call.kind() == RemoteCall.Kind.JDBC) {
      if (call.call().getNameAsString().equals("executeQuery")) {
        Imports.ensure(java, "java.sql.ResultSet");
        return "ResultSet";
      }
      return call.call().getNameAsString().equals("executeLargeUpdate") ? "long" : "int";
    }
    return null;
  }
}
