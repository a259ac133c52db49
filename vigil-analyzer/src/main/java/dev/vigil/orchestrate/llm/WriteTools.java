package dev.vigil.orchestrate.llm;

import java.util.Locale;
import java.util.Set;

/**
 * The write role of SPEC section 4.4b, as the judge needs it to pick turns: a tool whose name's first word
 * ({@code cancel_order}, {@code cancelOrder}, {@code cancel-order}) is a write verb. A stand-in: the judge takes the
 * role as a {@code Predicate<String>}, so the detectors' own tool roles can replace it.
 */
final class WriteTools {
  /** The write verbs of SPEC section 4.4b. */
  static final Set<String> VERBS = Set.of("book", "cancel", "create", "update", "modify", "delete", "remove", "send",
      "pay", "transfer", "set", "add", "submit", "refund", "exchange");

  private WriteTools() {}

  /** Whether the tool named {@code tool} writes. */
  static boolean isWrite(String tool) {
    return tool != null && VERBS.contains(firstWord(tool));
  }

  /** The name's first word, lower case: up to the first {@code _ - .} or space, or the first inner capital. */
  static String firstWord(String name) {
    int end = 0;
    while (end < name.length()) {
      char c = name.charAt(end);
      if (c == '_' || c == '-' || c == '.' || c == ' ' || (end > 0 && Character.isUpperCase(c))) {
        break;
      }
      end++;
    }
    return name.substring(0, end).toLowerCase(Locale.ROOT);
  }
}
