package dev.vigil.bench;

/**
 * The tool of the start-up figure ({@link StartupProbe}): what a booking-lookup tool returns. Knows
 * nothing of Vigil; the benchmark names it in {@code vigil.methods.include} (and in OpenTelemetry's
 * {@code otel.instrumentation.methods.include}), so the agent holds this class back until its
 * instrumentation is ready, and the call is recorded.
 */
public final class StartupTool {
  /** The included method. */
  public String lookup(String bookingNumber) {
    return "booking " + bookingNumber + ": 2026-12-01 to 2026-12-04, compact car";
  }
}
