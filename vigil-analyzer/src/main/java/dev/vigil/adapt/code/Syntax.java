package dev.vigil.adapt.code;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.InitializerDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.LambdaExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.Name;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.ObjectCreationExpr;
import com.github.javaparser.ast.expr.SimpleName;
import com.github.javaparser.ast.stmt.AssertStmt;
import com.github.javaparser.ast.stmt.ExpressionStmt;
import com.github.javaparser.ast.stmt.ReturnStmt;
import com.github.javaparser.ast.stmt.Statement;
import com.github.javaparser.ast.stmt.SwitchEntry;
import com.github.javaparser.ast.stmt.ThrowStmt;
import com.github.javaparser.ast.stmt.YieldStmt;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Questions the rewrites ask of a parsed compilation unit: the method or constructor a node is in,
 * the plain statement around a call, whether that statement sits directly in the method's body, the
 * type a name is declared with, and the names a method already uses.
 */
final class Syntax {
  private Syntax() {}

  /**
   * The method or constructor whose body holds {@code node} (lambdas are part of theirs), or empty.
   */
  static Optional<CallableDeclaration<?>> callableOf(Node node) {
    for (Node n = node.getParentNode().orElse(null);
        n != null;
        n = n.getParentNode().orElse(null)) {
      if (n instanceof MethodDeclaration || n instanceof ConstructorDeclaration) {
        return Optional.of((CallableDeclaration<?>) n);
      }
    }
    return Optional.empty();
  }

  /** False for a node a rewrite has already replaced, with what was around it. */
  static boolean attached(Node node) {
    return node.findCompilationUnit().isPresent();
  }

  /** The body of a method or constructor, or empty for an abstract method. */
  static Optional<? extends Node> body(CallableDeclaration<?> callable) {
    return callable instanceof MethodDeclaration m
        ? m.getBody()
        : Optional.of(((ConstructorDeclaration) callable).getBody());
  }

  /**
   * The statement ending in {@code ;} that holds {@code expression} itself (a declaration, an
   * assignment, a call, a {@code return}, a {@code throw}, a {@code yield} or an {@code assert}),
   * or null when the expression sits in a condition, a loop or {@code try} header, an expression
   * lambda, a switch rule or a constructor call.
   */
  static Statement plainStatement(Expression expression) {
    Node n = expression;
    while (n != null && !(n instanceof Statement)) {
      n = n.getParentNode().orElse(null);
    }
    if (n instanceof ExpressionStmt s) {
      return standsAlone(s) ? s : null;
    }
    return n instanceof ReturnStmt
            || n instanceof ThrowStmt
            || n instanceof YieldStmt
            || n instanceof AssertStmt
        ? (Statement) n
        : null;
  }

  /**
   * True when {@code statement} sits in the body of {@code callable} or its nested blocks, not in a
   * lambda, an anonymous or local class, or a switch rule.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  static boolean directlyIn(Statement statement, CallableDeclaration<?> callable) {
    for (Node n = statement.getParentNode().orElse(null);
        n != null && n != callable;
        n = n.getParentNode().orElse(null)) {
      if (n instanceof LambdaExpr
          || n instanceof ObjectCreationExpr
          || n instanceof TypeDeclaration
          || n instanceof InitializerDeclaration
          || (n instanceof SwitchEntry e && e.getType() != SwitchEntry.Type.STATEMENT_GROUP)) {
        return false;
      }
    }
    return true;
  }

  /**
   * True when {@code call} is a whole statement of a method body: whatever it returns is dropped.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  static boolean isIgnoredCall(MethodCallExpr call) {
    return call.getParentNode().orElse(null) instanceof ExpressionStmt s
        && s.getExpression() == call
        && standsAlone(s)
        && callableOf(call).isPresent();
  }

  /**
   * The name of the variable or field a call is made on ({@code http} in {@code
   * this.http.send(…)}), or "".
   */
  static String receiverName(MethodCallExpr call) {
    Expression scope = call.getScope().orElse(null);
    if (scope instanceof NameExpr name) {
      return name.getNameAsString();
    }
    return scope instanceof FieldAccessExpr field ? field.getNameAsString() : "";
  }

  /** The outermost type around {@code node} (anonymous classes are no types), or empty. */
  static Optional<TypeDeclaration<?>> outermostType(Node node) {
    TypeDeclaration<?> outer = null;
    for (Node n = node; n != null; n = n.getParentNode().orElse(null)) {
      if (n instanceof TypeDeclaration<?> t) {
        outer = t;
      }
    }
    return Optional.ofNullable(outer);
  }

  /**
   * For each name, the simple class type it is first declared with in the file, as a variable,
   * field or parameter ({@code HttpClient} for {@code private final HttpClient http}); names
   * declared only with other types are absent.
   */
  static Map<String, String> declaredTypes(Node unit) {
    List<Node> declarations = new ArrayList<>();
    declarations.addAll(unit.findAll(VariableDeclarator.class));
    declarations.addAll(unit.findAll(Parameter.class));
    declarations.sort(Comparator.comparing(d -> d.getBegin().orElseThrow()));
    Map<String, String> types = new HashMap<>();
    for (Node d : declarations) {
      String name =
          d instanceof VariableDeclarator v
              ? v.getNameAsString()
              : ((Parameter) d).getNameAsString();
      Type type = d instanceof VariableDeclarator v ? v.getType() : ((Parameter) d).getType();
      if (type instanceof ClassOrInterfaceType c) {
        types.putIfAbsent(name, c.getNameAsString());
      }
    }
    return types;
  }

  /** True when {@code type} is a class type with one of {@code names} as its simple name. */
  static boolean isClassType(Type type, Set<String> names) {
    return type instanceof ClassOrInterfaceType c && names.contains(c.getNameAsString());
  }

  /** Every identifier in the nodes: names of variables, methods, types, labels. */
  static Set<String> identifiers(List<? extends Node> nodes) {
    Set<String> names = new HashSet<>();
    for (Node node : nodes) {
      node.findAll(SimpleName.class).forEach(n -> names.add(n.getIdentifier()));
      node.findAll(Name.class).forEach(n -> names.add(n.getIdentifier()));
    }
    return names;
  }

  /**
   * The identifiers in the parameters and body of {@code callable}: the names a new local must not
   * take.
   */
  static Set<String> namesIn(CallableDeclaration<?> callable) {
    List<Node> scope = new ArrayList<>(callable.getParameters());
    body(callable).ifPresent(scope::add);
    return identifiers(scope);
  }

  /** {@code base}, or {@code base} followed by 2, 3… when {@code taken} has the name. */
  static String fresh(Set<String> taken, String base) {
    String name = base;
    for (int n = 2; taken.contains(name); n++) {
      name = base + n;
    }
    return name;
  }

  /** Code on one line, at most about 90 characters, for a note. */
  static String shorten(String code) {
    String oneLine = code.replaceAll("\\s+", " ");
    return oneLine.length() <= 90
        ? oneLine
        : oneLine.substring(0, 40) + " … " + oneLine.substring(oneLine.length() - 45);
  }

  /**
   * False for the statement JavaParser makes of an expression lambda's body or a switch rule's
   * expression.
   */
  private static boolean standsAlone(ExpressionStmt s) {
    Node parent = s.getParentNode().orElse(null);
    return !(parent instanceof LambdaExpr)
        && !(parent instanceof SwitchEntry e && e.getType() != SwitchEntry.Type.STATEMENT_GROUP);
  }
}
