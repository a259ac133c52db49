package dev.vigil.diagnose.policy;

import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What of a session's history a compiled rule can read, found in its expression: the kinds it names
 * in {@code session.last('kind')} and {@code session.calls('kind')} with a literal kind, and
 * whether it reads {@code session.user_texts}. A rule that uses {@code session} any other way (a
 * kind that is computed, the map itself) may read every kind.
 *
 * @param lastKinds kinds read only through {@code last}: the latest event is enough
 * @param callsKinds kinds read through {@code calls}
 * @param userTexts whether {@code session.user_texts} is read
 * @param everything whether any kind may be read
 */
record HistoryNeeds(
    Set<String> lastKinds, Set<String> callsKinds, boolean userTexts, boolean everything) {
  /** Copies the sets. */
  HistoryNeeds {
    lastKinds = Set.copyOf(lastKinds);
    callsKinds = Set.copyOf(callsKinds);
  }

  /** What the expression reads of the session. */
  static HistoryNeeds of(CelExpr expression) {
    Finder f = new Finder();
    f.walk(expression);
    Set<String> lastOnly = new HashSet<>(f.last);
    lastOnly.removeAll(f.calls);
    return new HistoryNeeds(lastOnly, f.calls, f.userTexts, f.everything);
  }

  /** Whether the rule reads nothing of the session: no history need be kept at all. */
  boolean nothing() {
    return !everything && !userTexts && lastKinds.isEmpty() && callsKinds.isEmpty();
  }

  /**
   * How many of the newest events of a kind a session keeps for the rule: 0, 1 (for {@code last})
   * or {@code many}.
   */
  int keep(String kind, int many) {
    if (everything || callsKinds.contains(kind)) {
      return many;
    }
    return lastKinds.contains(kind) ? 1 : 0;
  }

  private static final class Finder {
    final Set<String> last = new HashSet<>();
    final Set<String> calls = new HashSet<>();
    boolean userTexts;
    boolean everything;

    void walk(CelExpr e) {
      switch (e.getKind()) {
        case IDENT -> everything |= isSession(e);
        case SELECT -> {
          if (isSession(e.select().operand())
              && e.select().field().equals(PolicyEnvironment.USER_TEXTS)) {
            userTexts = true;
          } else {
            walk(e.select().operand());
          }
        }
        case CALL -> call(e.call());
        case LIST -> e.list().elements().forEach(this::walk);
        case MAP ->
            e.map()
                .entries()
                .forEach(
                    entry -> {
                      walk(entry.key());
                      walk(entry.value());
                    });
        case STRUCT -> e.struct().entries().forEach(entry -> walk(entry.value()));
        case COMPREHENSION -> {
          CelExpr.CelComprehension c = e.comprehension();
          everything |=
              isSessionName(c.iterVar())
                  || isSessionName(c.iterVar2())
                  || isSessionName(c.accuVar());
          List.of(c.iterRange(), c.accuInit(), c.loopCondition(), c.loopStep(), c.result())
              .forEach(this::walk);
        }
        default -> {
          // constants and unset expressions read nothing
        }
      }
    }

    private void call(CelExpr.CelCall call) {
      String f = call.function();
      boolean history = f.equals("last") || f.equals("calls");
      if (history
          && call.target().isPresent()
          && isSession(call.target().get())
          && call.args().size() == 1
          && call.args().get(0).getKind() == CelExpr.ExprKind.Kind.CONSTANT
          && call.args().get(0).constant().getKind() == CelConstant.Kind.STRING_VALUE) {
        (f.equals("last") ? last : calls).add(call.args().get(0).constant().stringValue());
        return;
      }
      call.target().ifPresent(this::walk);
      call.args().forEach(this::walk);
    }

    private static boolean isSession(CelExpr e) {
      return e.getKind() == CelExpr.ExprKind.Kind.IDENT && isSessionName(e.ident().name());
    }

    private static boolean isSessionName(String name) {
      return PolicyEnvironment.SESSION.equals(name);
    }
  }
}
