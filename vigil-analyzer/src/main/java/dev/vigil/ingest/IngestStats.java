package dev.vigil.ingest;

import java.util.Map;
import java.util.TreeMap;

/**
 * What an input yielded: events read, lines or excerpts skipped by reason, naive timestamps read.
 */
public final class IngestStats {
  private final Map<String, Long> skipped = new TreeMap<>();
  private long read;
  private long naiveTimestamps;

  /** Counts one event read. */
  public void read(boolean naiveTs) {
    read++;
    if (naiveTs) {
      naiveTimestamps++;
    }
  }

  /** Counts one skipped line or excerpt under its reason. */
  public void skip(String reason) {
    skipped.merge(reason, 1L, Long::sum);
  }

  /** Adds what {@code other} counted (a part of the same input read apart). */
  public void add(IngestStats other) {
    read += other.read;
    naiveTimestamps += other.naiveTimestamps;
    other.skipped.forEach((reason, n) -> skipped.merge(reason, n, Long::sum));
  }

  /** Events read. */
  public long eventsRead() {
    return read;
  }

  /** Events whose {@code ts} had no offset and was read in the assumed zone. */
  public long naiveTimestamps() {
    return naiveTimestamps;
  }

  /** Skipped input by reason. */
  public Map<String, Long> skipped() {
    return Map.copyOf(skipped);
  }
}
