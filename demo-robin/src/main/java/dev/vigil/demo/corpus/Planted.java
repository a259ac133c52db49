package dev.vigil.demo.corpus;

/**
 * What one session of the corpus plants, and so its label.
 *
 * @param session the session id
 * @param agent {@code shop} or {@code robin}
 * @param kind the scenario, e.g. {@code clean_lookup} or {@code policy_violation}
 * @param failed the label: whether the session failed the user
 * @param target the detector or policy rule built to catch this failure, or {@code none} (clean
 *     sessions, and failures no detector targets)
 */
record Planted(String session, String agent, String kind, boolean failed, String target) {
  /** No detector targets it (a clean session, or a failure outside every detector's reach). */
  static final String NONE = "none";
}
