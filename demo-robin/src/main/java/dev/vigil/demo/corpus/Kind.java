package dev.vigil.demo.corpus;

/**
 * A scenario of the corpus and how many sessions play it.
 *
 * @param agent {@code shop} or {@code robin}
 * @param name the scenario
 * @param failed whether its sessions fail the user
 * @param target the detector or policy rule built to catch it, or {@link Planted#NONE}
 * @param count how many sessions play it
 */
record Kind(String agent, String name, boolean failed, String target, int count) {
  static Kind clean(String agent, String name, int count) {
    return new Kind(agent, name, false, Planted.NONE, count);
  }

  static Kind failure(String agent, String name, String target, int count) {
    return new Kind(agent, name, true, target, count);
  }

  /** A failure that no detector targets: the honest part of the figure. */
  static Kind untargeted(String agent, String name, int count) {
    return new Kind(agent, name, true, Planted.NONE, count);
  }
}
