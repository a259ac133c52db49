package dev.vigil.adapt.code;

import java.util.Locale;

/**
 * What a thorn's cause ({@code kind:status}, docs/DESIGN.md#appraisal) says went wrong, as the
 * strategies read it. The first that holds: a kind with {@code premature} (the {@code
 * premature_success} detector's {@code <kind>.premature}); a kind with {@code timestamp} (the
 * {@code timestamp_inconsistent} detector); status {@code timeout}; status {@code delay} or a kind
 * with {@code delay} (the {@code latency} detector); status {@code fail}, {@code error} or {@code
 * complaint}, or a kind with {@code error}; anything else.
 */
public enum ThornKind {
  /** Success reported before its confirmation. */
  PREMATURE,
  /** Naive and zoned timestamps mixed. */
  TIMESTAMP,
  /** A call that timed out. */
  TIMEOUT,
  /** A call slower than its budget, or a delayed outcome. */
  DELAY,
  /** A failure or a complaint. */
  FAILURE,
  /** None of the above. */
  OTHER;

  /** The kind of a cause {@code kind:status}; a cause without a colon is read as a kind. */
  public static ThornKind of(String cause) {
    String c = cause == null ? "" : cause.toLowerCase(Locale.ROOT);
    int colon = c.lastIndexOf(':');
    String kind = colon < 0 ? c : c.substring(0, colon);
    String status = colon < 0 ? "" : c.substring(colon + 1);
    if (kind.contains("premature")) {
      return PREMATURE;
    }
    if (kind.contains("timestamp")) {
      return TIMESTAMP;
    }
    if (status.equals("timeout") || kind.contains("timeout")) {
      return TIMEOUT;
    }
    if (status.equals("delay") || kind.contains("delay")) {
      return DELAY;
    }
    if (status.equals("fail")
        || status.equals("error")
        || status.equals("complaint")
        || kind.contains("error")) {
      return FAILURE;
    }
    return OTHER;
  }
}
