package dev.vigil.adapt.code;

import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words that mark a receipt, acknowledgement or confirmation, as in the {@code premature_success} detector
 * (SPEC section 4.4): {@code receipt}, {@code ack}, {@code confirm}, {@code delivered} and their forms. Identifiers
 * are split into words first, so {@code sendAck} matches and {@code stack} does not.
 */
final class ReceiptWords {
  private static final Set<String> WORDS = Set.of("receipt", "receipts", "ack", "acks", "acked", "acknowledge",
      "acknowledged", "acknowledgement", "acknowledgment", "confirm", "confirms", "confirmed", "confirmation",
      "confirmations", "deliver", "delivers", "delivered", "delivery", "deliveries");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");

  private ReceiptWords() {}

  /** True when one of the identifiers in {@code code} has a receipt word. */
  static boolean in(String code) {
    return first(code) != null;
  }

  /** The first identifier in {@code code} with a receipt word, or null. */
  static String first(String code) {
    String lower = code.toLowerCase(java.util.Locale.ROOT);
    if (!lower.contains("receipt") && !lower.contains("ack") && !lower.contains("confirm")
        && !lower.contains("deliver")) {
      return null;
    }
    Matcher m = IDENTIFIER.matcher(code);
    while (m.find()) {
      for (String w : JavaSource.words(m.group())) {
        if (WORDS.contains(w)) {
          return m.group();
        }
      }
    }
    return null;
  }
}
