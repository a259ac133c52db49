package dev.vigil.emobank;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What depositing one appraised row does, judged against the previous live row
 * (docs/DESIGN.md#the-emobank, the paper's section 3.3), in event time. A window holds when {@code
 * 0 ≤ ts - prev.ts ≤ window}, so an out-of-order event (earlier than the previous row) never
 * coalesces or rebounds.
 *
 * <ol>
 *   <li>Noise floor: intensity below 0.25 is dropped unless its valence sign differs from the
 *       previous row's ({@code prev ≥ 0 > new} or {@code prev ≤ 0 < new}).
 *   <li>Coalescing: same emotion and cause as the previous row within 5 minutes: an {@code amend}
 *       row with the event's ts and intensity {@code min(1, prev + 0.5·new)} replaces the previous
 *       row.
 *   <li>Otherwise the row is appended.
 *   <li>Rebound: previous valence below 0, this one above 0, within 10 minutes: a {@code
 *       determination} row follows, valence 0.4, intensity {@code min(1, 0.3 + 0.2·new)}, source
 *       {@code shadow}.
 * </ol>
 *
 * <p>The paper gives the rebound intensity as "0.3 to 0.4 depending on context"; Vigil uses the
 * formula above (docs/DESIGN.md#deposit-policy).
 */
final class DepositPolicy {
  /** Rows weaker than this are noise unless they flip the valence sign. */
  public static final double NOISE_FLOOR = 0.25;

  /** Same emotion and cause within this window coalesce. */
  public static final Duration COALESCE_WINDOW = Duration.ofMinutes(5);

  /** Share of the new intensity added to the previous row when coalescing. */
  public static final double COALESCE_GAIN = 0.5;

  /** A negative-to-positive turn within this window injects a determination row. */
  public static final Duration REBOUND_WINDOW = Duration.ofMinutes(10);

  /** The rebound row's emotion. */
  public static final String REBOUND_EMOTION = "determination";

  /** The rebound row's valence. */
  public static final double REBOUND_VALENCE = 0.4;

  /** The rebound row's base intensity. */
  public static final double REBOUND_BASE = 0.3;

  /** Share of the new intensity added to the rebound's base. */
  public static final double REBOUND_GAIN = 0.2;

  private DepositPolicy() {}

  /**
   * The rows to append for {@code row}, given the previous live row.
   *
   * @param previous the last live row of the bank, or null when the bank is empty
   * @return nothing (dropped), one {@code amend} row, the row, or the row and its rebound row
   */
  public static List<EmotionRow> deposit(EmotionRow previous, EmotionRow row) {
    if (previous == null) {
      return row.intensity() < NOISE_FLOOR ? List.of() : List.of(row);
    }
    if (row.intensity() < NOISE_FLOOR && !signFlips(previous.valence(), row.valence())) {
      return List.of();
    }
    if (row.emotion().equals(previous.emotion())
        && row.cause().equals(previous.cause())
        && within(previous.ts(), row.ts(), COALESCE_WINDOW)) {
      double amplified = Math.min(1, previous.intensity() + COALESCE_GAIN * row.intensity());
      return List.of(previous.amended(row.ts(), amplified));
    }
    if (previous.valence() < 0
        && row.valence() > 0
        && within(previous.ts(), row.ts(), REBOUND_WINDOW)) {
      double intensity = Math.min(1, REBOUND_BASE + REBOUND_GAIN * row.intensity());
      EmotionRow rebound =
          new EmotionRow(
              row.ts(),
              REBOUND_EMOTION,
              intensity,
              REBOUND_VALENCE,
              row.cause(),
              row.episode(),
              row.confidence(),
              EmotionRow.SHADOW,
              false);
      return List.of(row, rebound);
    }
    return List.of(row);
  }

  /** {@code prev ≥ 0 > new} or {@code prev ≤ 0 < new}. */
  static boolean signFlips(double previous, double next) {
    return (previous >= 0 && next < 0) || (previous <= 0 && next > 0);
  }

  /** {@code 0 ≤ later - earlier ≤ window}. */
  static boolean within(Instant earlier, Instant later, Duration window) {
    long seconds =
        later.getEpochSecond() - earlier.getEpochSecond(); // exact: epoch seconds span under 2^56
    int nanos = later.getNano() - earlier.getNano();
    if (nanos < 0) {
      seconds--;
      nanos += 1_000_000_000;
    }
    return seconds >= 0
        && (seconds < window.getSeconds()
            || (seconds == window.getSeconds() && nanos <= window.getNano()));
  }
}
