package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words that mark a receipt, acknowledgement or confirmation, as in the {@code
 * premature_success} detector (docs/DETECTORS.md): {@code receipt}, {@code ack}, {@code confirm},
 * {@code delivered} and their forms. Identifiers are split into words first, so {@code sendAck}
 * matches and {@code stack} does not.
 */
final class ReceiptWords {
  private static final Set<String> WORDS =
      Set.of(
          "receipt",
          "receipts",
          "ack",
          "acks",
          "acked",
          "acknowledge",
          "acknowledged",
          "acknowledgement",
          "acknowledgment",
          "confirm",
          "confirms",
          "confirmed",
          "confirmation",
          "confirmations",
          "deliver",
          "delivers",
          "delivered",
          "delivery",
          "deliveries");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");
  private static final Pattern WORD_SEPARATORS = Pattern.compile("[_$\\d]+");
  private static final Pattern CAMEL_BOUNDARY =
      Pattern.compile("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])");

  private ReceiptWords() {}

  /** True when one of the identifiers in {@code code} has a receipt word. */
  static boolean in(String code) {
    return first(code) != null;
  }

  /** False when no receipt word can be in {@code code}: a quick test before {@link #in}. */
  static boolean hinted(String code) {
    String lower = code.toLowerCase(java.util.Locale.ROOT);
    return lower.contains("receipt")
        || lower.contains("ack")
        || lower.contains("confirm")
        || lower.contains("deliver");
  }

  /** The first identifier in {@code code} with a receipt word, or null. */
  static String first(String code) {
    if (!hinted(code)) {
      return null;
    }
    Matcher m = IDENTIFIER.matcher(code);
    while (m.find()) {
      for (String w : words(m.group())) {
        if (WORDS.contains(w)) {
          return m.group();
        }
      }
    }
    return null;
  }

  /**
   * The words of a Java identifier, lower case: {@code confirmDeliveryAck} gives confirm, delivery,
   * ack.
   */
  static List<String> words(String identifier) {
    List<String> words = new ArrayList<>();
    for (String part : WORD_SEPARATORS.split(identifier, -1)) {
      for (String w : CAMEL_BOUNDARY.split(part, -1)) {
        if (!w.isEmpty()) {
          words.add(w.toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
    return words;
  }
}
