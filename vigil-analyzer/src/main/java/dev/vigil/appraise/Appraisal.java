package dev.vigil.appraise;

/**
 * What one event felt like (docs/DESIGN.md#appraisal).
 *
 * @param emotion the discrete label, for example {@code frustration}
 * @param valence direction, in [-1, 1]
 * @param intensity strength after clamping, in [0, 1]
 * @param cause {@code kind:status} of the event
 */
public record Appraisal(String emotion, double valence, double intensity, String cause) {}
