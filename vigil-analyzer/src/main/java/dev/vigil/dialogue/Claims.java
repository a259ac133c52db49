package dev.vigil.dialogue;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lexicon of claims: the past forms by which an answer states an action as done ("cancelled",
 * "booked"), each with the verbs of the write calls that back it ({@code "cancelled": ["cancel",
 * "delete", "remove"]}). English by default; the rules file's {@code
 * detectors.claim_without_action.claims} replaces it for every reader, the detector and the judge
 * alike (docs/DETECTORS.md#conversation-detectors).
 *
 * @param forms each past form, lower case, to the verbs that back it, in the order they are tried
 */
public record Claims(Map<String, List<String>> forms) {
  /** The English defaults. */
  public static final Claims DEFAULTS = new Claims(defaults());

  /** Copies the map, keeping its order. */
  public Claims {
    forms = Collections.unmodifiableMap(new LinkedHashMap<>(forms));
  }

  private static Map<String, List<String>> defaults() {
    Map<String, List<String>> m = new LinkedHashMap<>();
    m.put("cancelled", List.of("cancel", "delete", "remove"));
    m.put("canceled", List.of("cancel", "delete", "remove"));
    m.put("booked", List.of("book", "reserve", "create"));
    m.put("reserved", List.of("book", "reserve", "create"));
    m.put("created", List.of("create", "book", "add"));
    m.put("updated", List.of("update", "modify", "change", "edit", "set"));
    m.put("modified", List.of("update", "modify", "change", "edit"));
    m.put("changed", List.of("update", "modify", "change", "edit", "exchange", "set"));
    m.put("deleted", List.of("delete", "remove", "cancel"));
    m.put("removed", List.of("remove", "delete", "cancel"));
    m.put("sent", List.of("send", "submit"));
    m.put("paid", List.of("pay", "transfer", "charge"));
    m.put("charged", List.of("pay", "charge"));
    m.put("transferred", List.of("transfer", "pay"));
    m.put("scheduled", List.of("set", "schedule", "create", "add", "book"));
    m.put("set", List.of("set", "schedule", "create", "add", "book", "update"));
    m.put("added", List.of("add", "create", "set"));
    m.put("submitted", List.of("submit", "send"));
    m.put("refunded", List.of("refund", "return"));
    m.put("exchanged", List.of("exchange", "swap", "replace"));
    m.put("returned", List.of("return", "refund"));
    return m;
  }

  /**
   * The first claim form that stands as a whole word in a sentence of {@code text} that is no
   * question (case-insensitive), or null. It errs on the side of finding: "not cancelled" holds one
   * too; the detector then looks at negations, the judge asks the model.
   */
  public String in(String text) {
    if (text == null || text.isEmpty()) {
      return null;
    }
    int from = 0;
    for (int i = 0; i <= text.length(); i++) {
      char c = i < text.length() ? text.charAt(i) : '.';
      if (c == '.' || c == '!' || c == '?' || c == '\n') {
        if (c != '?') {
          for (String w : Phrases.words(text.substring(from, i))) {
            if (forms.containsKey(w)) {
              return w;
            }
          }
        }
        from = i + 1;
      }
    }
    return null;
  }
}
