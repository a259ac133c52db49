package dev.vigil.eval;

/**
 * How well one detector (or policy rule, or alarm level) picks out failed sessions, counting a
 * session once however many instances it found there.
 *
 * @param name the detector's name
 * @param fired labelled sessions in which it fired
 * @param truePositives of those, sessions labelled failed
 * @param failed sessions labelled failed in all
 */
record DetectorScore(String name, int fired, int truePositives, int failed) {
  /** The share of the sessions it fired in that failed; null when it never fired. */
  Double precision() {
    return fired == 0 ? null : (double) truePositives / fired;
  }

  /** The share of the failed sessions it fired in; null when no session failed. */
  Double recall() {
    return failed == 0 ? null : (double) truePositives / failed;
  }
}
