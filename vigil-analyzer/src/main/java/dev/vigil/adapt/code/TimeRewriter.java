package dev.vigil.adapt.code;

import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import com.github.javaparser.ast.expr.AssignExpr;
import com.github.javaparser.ast.expr.BinaryExpr;
import com.github.javaparser.ast.expr.Expression;
import com.github.javaparser.ast.expr.FieldAccessExpr;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.expr.SimpleName;
import com.github.javaparser.ast.expr.StringLiteralExpr;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The UTC-aware half of {@link TZReceiptStrategy}: a local date-time pinned to UTC is read in the
 * zone the code already has for it.
 *
 * <ul>
 *   <li>{@code x.toInstant(ZoneOffset.UTC)} and {@code x.toEpochSecond(ZoneOffset.UTC)} (also with
 *       {@code ZoneId.of("UTC")}) become {@code x.atZone(zone).toInstant()} and {@code
 *       x.atZone(zone).toEpochSecond()}, where {@code zone} is a zone in scope ({@link ZoneScope}).
 *       Only a {@code ChronoLocalDateTime} has these one-argument methods, so the receiver is a
 *       local time. A receiver that was itself made in UTC ({@code
 *       LocalDateTime.now(ZoneOffset.UTC)}, a {@code Clock}) is left alone. With no zone in scope
 *       nothing is changed and a note says so.
 *   <li>In a method rewritten that way, {@code LocalDate.now()}, {@code LocalTime.now()} and {@code
 *       LocalDateTime.now()} become {@code now(zone)}, and {@code ZoneId.systemDefault()} becomes
 *       {@code zone}: the user's today, not the server's.
 *   <li>Elsewhere, {@code LocalDateTime.now()} used as text (with {@code .toString()} or in a
 *       string concatenation) becomes {@code OffsetDateTime.now(ZoneOffset.UTC)}, a timestamp that
 *       carries its offset.
 * </ul>
 */
final class TimeRewriter {
  private static final Set<String> PINNED = Set.of("toInstant", "toEpochSecond");
  private static final Set<String> LOCAL_TYPES = Set.of("LocalDateTime", "LocalDate", "LocalTime");
  private static final Set<String> UTC_IDS = Set.of("UTC", "Z", "GMT", "Etc/UTC");

  private final String file;
  private final JavaFile java;
  private final List<String> changes;
  private final List<String> notes;
  private final Set<CallableDeclaration<?>> rewrittenMethods =
      Collections.newSetFromMap(new IdentityHashMap<>());

  TimeRewriter(String file, JavaFile java, List<String> changes, List<String> notes) {
    this.file = file;
    this.java = java;
    this.changes = changes;
    this.notes = notes;
  }

  /**
   * False when {@code source} has nothing this rewrite looks for, so that it need not be parsed.
   */
  static boolean mayApply(String source) {
    return source.contains("toInstant")
        || source.contains("toEpochSecond")
        || source.contains("LocalDateTime");
  }

  /** Rewrites the file; returns how many places changed. */
  int rewrite() {
    int before = changes.size();
    List<MethodCallExpr> calls = calls();
    List<MethodCallExpr> pinned = calls.stream().filter(TimeRewriter::isPinnedToUtc).toList();
    List<MethodCallExpr> localNows =
        calls.stream()
            .filter(
                c ->
                    c.getNameAsString().equals("now")
                        && c.getArguments().isEmpty()
                        && LOCAL_TYPES.contains(scopeName(c)))
            .toList();
    List<MethodCallExpr> systemZones =
        calls.stream()
            .filter(
                c ->
                    c.getNameAsString().equals("systemDefault")
                        && c.getArguments().isEmpty()
                        && scopeName(c).equals("ZoneId"))
            .toList();
    pinned.stream().filter(Syntax::attached).forEach(this::readInZone);
    localNows.stream().filter(Syntax::attached).forEach(this::localNow);
    systemZones.stream().filter(Syntax::attached).forEach(this::systemZone);
    return changes.size() - before;
  }

  private void readInZone(MethodCallExpr call) {
    CallableDeclaration<?> method = Syntax.callableOf(call).orElse(null);
    Expression receiver = call.getScope().orElseThrow();
    if (method == null || madeInUtc(receiver, method)) {
      return;
    }
    String receiverText = java.text(receiver);
    String rest = java.text(call).substring(receiverText.length());
    String before = receiverText + rest.strip();
    int line = Layout.line(call.getName());
    String zone = ZoneScope.find(method, call);
    if (zone == null) {
      notes.add(
          file
              + ":"
              + line
              + ": `"
              + Syntax.shorten(before)
              + "` reads a local time as UTC, but no ZoneId is"
              + " in scope to read it in; left unchanged (give the method the user's zone)");
      return;
    }
    String replacement = ".atZone(" + zone + ")." + call.getNameAsString() + "()";
    String gap = rest.substring(0, rest.indexOf('.'));
    java.replace(call, java.expression(receiverText + gap + replacement));
    rewrittenMethods.add(method);
    changes.add(
        file
            + ":"
            + line
            + ": `"
            + Syntax.shorten(before)
            + "` becomes `"
            + Syntax.shorten(receiverText + replacement)
            + "`: the local time is read in `"
            + zone
            + "`, not as if it were UTC");
  }

  private void localNow(MethodCallExpr call) {
    CallableDeclaration<?> method = Syntax.callableOf(call).orElse(null);
    if (method == null) {
      return;
    }
    int line = Layout.line(call);
    String type = scopeName(call);
    if (rewrittenMethods.contains(method)) {
      String zone = ZoneScope.find(method, call);
      if (zone != null) {
        String replacement = java.text(call.getScope().orElseThrow()) + ".now(" + zone + ")";
        java.replace(call, java.expression(replacement));
        changes.add(
            file
                + ":"
                + line
                + ": `"
                + type
                + ".now()` becomes `"
                + type
                + ".now("
                + zone
                + ")`: today in the user's zone, not the server's");
      }
    } else if (type.equals("LocalDateTime") && usedAsText(call)) {
      String replacement = "OffsetDateTime.now(ZoneOffset.UTC)";
      java.replace(call, java.expression(replacement));
      Imports.ensure(java, "java.time.OffsetDateTime", "java.time.ZoneOffset");
      changes.add(
          file
              + ":"
              + line
              + ": `LocalDateTime.now()` becomes `"
              + replacement
              + "`: the timestamp carries its offset instead of the server's naive local time");
    }
  }

  private void systemZone(MethodCallExpr call) {
    CallableDeclaration<?> method = Syntax.callableOf(call).orElse(null);
    if (method == null || !rewrittenMethods.contains(method)) {
      return;
    }
    String zone = ZoneScope.find(method, call);
    if (zone == null
        || (call.getParentNode().orElse(null) instanceof VariableDeclarator v
            && v.getNameAsString().equals(zone))) {
      return;
    }
    java.replace(call, java.expression(zone));
    changes.add(
        file
            + ":"
            + Layout.line(call)
            + ": `ZoneId.systemDefault()` becomes `"
            + zone
            + "`: the user's zone, not the server's");
  }

  /** The file's method calls, in the order they appear (by the position of their names). */
  private List<MethodCallExpr> calls() {
    List<MethodCallExpr> calls = java.unit().findAll(MethodCallExpr.class);
    calls.sort(Comparator.comparing(c -> c.getName().getBegin().orElseThrow()));
    return calls;
  }

  private static boolean isPinnedToUtc(MethodCallExpr call) {
    return PINNED.contains(call.getNameAsString())
        && call.getScope().isPresent()
        && call.getArguments().size() == 1
        && isUtc(call.getArgument(0));
  }

  /**
   * True for {@code ZoneOffset.UTC} and {@code ZoneId.of("UTC")} (also "Z", "GMT", "Etc/UTC"),
   * qualified or not.
   */
  private static boolean isUtc(Node node) {
    if (node instanceof FieldAccessExpr f) {
      return f.getNameAsString().equals("UTC") && isType(f.getScope(), "ZoneOffset");
    }
    return node instanceof MethodCallExpr c
        && c.getNameAsString().equals("of")
        && c.getArguments().size() == 1
        && c.getScope().map(s -> isType(s, "ZoneId")).orElse(false)
        && c.getArgument(0) instanceof StringLiteralExpr s
        && UTC_IDS.contains(s.getValue());
  }

  private static boolean isType(Expression scope, String simpleName) {
    String text = scope.toString();
    return text.equals(simpleName) || text.equals("java.time." + simpleName);
  }

  /**
   * True when the receiver of {@code toInstant(UTC)} was made in UTC on purpose, or from a clock.
   */
  private boolean madeInUtc(Expression receiver, CallableDeclaration<?> method) {
    if (mentionsUtcOrClock(receiver)) {
      return true;
    }
    if (!(receiver instanceof NameExpr name)) {
      return false;
    }
    Expression last = null;
    for (Node n : Syntax.body(method).map(b -> b.findAll(Node.class)).orElse(List.of())) {
      if (!n.getEnd().map(end -> end.isBefore(receiver.getBegin().orElseThrow())).orElse(false)) {
        continue;
      }
      if (n instanceof VariableDeclarator v
          && v.getNameAsString().equals(name.getNameAsString())
          && v.getInitializer().isPresent()) {
        last = v.getInitializer().get();
      } else if (n instanceof AssignExpr a
          && a.getOperator() == AssignExpr.Operator.ASSIGN
          && assigns(a.getTarget(), name.getNameAsString())) {
        last = a.getValue();
      }
    }
    return last != null && mentionsUtcOrClock(last);
  }

  private static boolean assigns(Expression target, String name) {
    return (target instanceof NameExpr n && n.getNameAsString().equals(name))
        || (target instanceof FieldAccessExpr f && f.getNameAsString().equals(name));
  }

  private static boolean mentionsUtcOrClock(Expression e) {
    return e.findFirst(Node.class, TimeRewriter::isUtc).isPresent()
        || e.findAll(SimpleName.class).stream()
            .anyMatch(n -> n.getIdentifier().equals("clock") || n.getIdentifier().equals("Clock"));
  }

  /**
   * True when {@code call} is turned into text right away: {@code .toString()} or string
   * concatenation.
   */
  // AST nodes by identity on purpose: JavaParser's equals is structural, and equal code elsewhere
  // is another node
  @SuppressWarnings("ReferenceEquality")
  private static boolean usedAsText(MethodCallExpr call) {
    Node parent = call.getParentNode().orElse(null);
    return (parent instanceof MethodCallExpr outer
            && outer.getScope().orElse(null) == call
            && outer.getNameAsString().equals("toString")
            && outer.getArguments().isEmpty())
        || (parent instanceof BinaryExpr b && b.getOperator() == BinaryExpr.Operator.PLUS);
  }

  /**
   * The simple name of a call's scope: {@code LocalDate} for {@code java.time.LocalDate.now()}, or
   * "".
   */
  private static String scopeName(MethodCallExpr call) {
    Expression scope = call.getScope().orElse(null);
    if (scope instanceof NameExpr n) {
      return n.getNameAsString();
    }
    return scope instanceof FieldAccessExpr f && f.getScope().toString().equals("java.time")
        ? f.getNameAsString()
        : "";
  }
}
