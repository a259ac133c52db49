package dev.vigil.diagnose;

/**
 * A cause ranked by the thorns it produced.
 *
 * @param cause {@code kind:status}
 * @param intensity summed decayed intensity of its thorns
 * @param thorns how many thorn rows it has
 */
public record ThornCause(String cause, double intensity, int thorns) {}
