package dev.vigil.observe;

/**
 * The statuses the event wire writes as a code in an event's flags rather than as text, apart from
 * {@link EventWire}: the agent's encoder asks for a code on the path a short process waits for at
 * its exit, where loading {@code EventWire} would load and verify Jackson's tree classes that it
 * names (docs/DESIGN.md#the-start-path).
 */
final class StatusCodes {
  /** Index 0 stands for a status written as UTF-8. */
  private static final String[] STATUSES = {null, "ok", "fail", "timeout"};

  private StatusCodes() {}

  /** The code of {@code status} in the flags, or 0 when it is written as UTF-8. */
  static int of(String status) {
    for (int i = 1; i < STATUSES.length; i++) {
      if (STATUSES[i].equals(status)) {
        return i;
      }
    }
    return 0;
  }

  /** The status of a code other than 0. */
  static String status(int code) {
    return STATUSES[code];
  }
}
