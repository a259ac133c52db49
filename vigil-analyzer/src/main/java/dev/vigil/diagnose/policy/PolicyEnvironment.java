package dev.vigil.diagnose.policy;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelLateFunctionBindings;
import dev.cel.runtime.CelRuntime;
import java.util.Map;

/**
 * The CEL environment of a policy rule (docs/POLICIES.md), built once, on the first rule, with
 * Google's CEL for Java: variables {@code args} and {@code result} (dynamic JSON values), {@code
 * status} and {@code tool} (strings) and {@code session}, a map whose {@code user_texts} is a list
 * of strings and on which {@code last(kind)} and {@code calls(kind)} are functions; CEL's standard
 * macros and functions; the expression must be a {@code bool}.
 *
 * <p>{@code last} and {@code calls} are bound late, per evaluation, to the call's own {@link
 * SessionHistory}: the compiled program is shared and thread-safe, the history is not. Numbers of
 * different types compare as numbers ({@code args.amount > 100} holds for {@code 150.5}), as JSON
 * has one number type.
 */
final class PolicyEnvironment {
  static final String ARGS = "args";
  static final String RESULT = "result";
  static final String STATUS = "status";
  static final String TOOL = "tool";
  static final String SESSION = "session";
  static final String USER_TEXTS = "user_texts";

  private static final String LAST = "session_last_string";
  private static final String CALLS = "session_calls_string";

  private PolicyEnvironment() {}

  /**
   * The environment, built when the first rule is compiled (it costs a few hundred milliseconds).
   */
  private static final class Holder {
    static final Cel CEL = build();
  }

  private static Cel build() {
    CelType dyn = SimpleType.DYN;
    CelType session = MapType.create(SimpleType.STRING, dyn);
    return CelFactory.legacyCelBuilder()
        .setOptions(CelOptions.current().enableHeterogeneousNumericComparisons(true).build())
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addVar(ARGS, dyn)
        .addVar(RESULT, dyn)
        .addVar(STATUS, SimpleType.STRING)
        .addVar(TOOL, SimpleType.STRING)
        .addVar(SESSION, session)
        .addFunctionDeclarations(
            CelFunctionDecl.newFunctionDeclaration(
                "last", CelOverloadDecl.newMemberOverload(LAST, dyn, session, SimpleType.STRING)),
            CelFunctionDecl.newFunctionDeclaration(
                "calls",
                CelOverloadDecl.newMemberOverload(
                    CALLS, ListType.create(dyn), session, SimpleType.STRING)))
        .setResultType(SimpleType.BOOL)
        .build();
  }

  /**
   * One compiled rule.
   *
   * @param program the program, shared and thread-safe
   * @param needs what it can read of a session's history
   */
  record Compiled(CelRuntime.Program program, HistoryNeeds needs) {}

  /**
   * Compiles (parses and type-checks) one expression.
   *
   * @throws IllegalArgumentException with the first error's line and column (1-based), what is
   *     wrong and CEL's pointer into the expression
   */
  static Compiled compile(String expression) {
    Cel cel = Holder.CEL;
    try {
      CelAbstractSyntaxTree ast = cel.compile(expression).getAst();
      return new Compiled(cel.createProgram(ast), HistoryNeeds.of(ast.getExpr()));
    } catch (CelValidationException e) {
      CelIssue first = e.getErrors().isEmpty() ? null : e.getErrors().get(0);
      if (first == null) {
        throw new IllegalArgumentException(e.getMessage(), e);
      }
      var at = first.getSourceLocation();
      String where =
          expression.contains("\n")
              ? "line " + at.getLine() + ", column " + (at.getColumn() + 1)
              : "column " + (at.getColumn() + 1);
      throw new IllegalArgumentException(
          where + ": " + first.getMessage() + "\n" + pointer(e.getMessage()), e);
    } catch (CelEvaluationException e) {
      throw new IllegalArgumentException("cannot be planned: " + e.getMessage(), e);
    }
  }

  /**
   * CEL's display of the errors without its {@code ERROR: <input>:L:C: …} lines: the expression and
   * the caret.
   */
  private static String pointer(String display) {
    StringBuilder sb = new StringBuilder();
    for (String line : display.split("\n", -1)) {
      if (line.startsWith(" |")) {
        sb.append(sb.length() == 0 ? "" : "\n").append(line);
      }
    }
    return sb.toString();
  }

  /**
   * Evaluates a compiled rule.
   *
   * @param vars {@code args}, {@code result}, {@code status}, {@code tool} and {@code session}
   * @param history what {@code session.last} and {@code session.calls} read
   * @return what the expression gave (a {@link Boolean} for a well-formed rule; a dynamic one may
   *     give another type)
   * @throws CelEvaluationException when the rule fails on this call (a missing field, a wrong type)
   */
  // CEL marks its function interfaces @Immutable for bindings shared across evaluations; these late
  // bindings live for
  // this one evaluation only, and the session's history does not change while it runs
  @SuppressWarnings("Immutable")
  static Object eval(CelRuntime.Program program, Map<String, ?> vars, SessionHistory history)
      throws CelEvaluationException {
    return program.eval(
        vars,
        CelLateFunctionBindings.from(
            CelFunctionBinding.from(LAST, Map.class, String.class, (s, kind) -> history.last(kind)),
            CelFunctionBinding.from(
                CALLS, Map.class, String.class, (s, kind) -> history.calls(kind))));
  }
}
