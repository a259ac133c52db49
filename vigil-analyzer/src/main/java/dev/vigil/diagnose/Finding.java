package dev.vigil.diagnose;

import java.time.Instant;

/**
 * One classified row of a diagnosis.
 *
 * @param ts the row's event time
 * @param emotion the emotion
 * @param intensity decayed intensity at the pass's {@code now}
 * @param valence valence
 * @param cause {@code kind:status}
 */
public record Finding(Instant ts, String emotion, double intensity, double valence, String cause) {}
