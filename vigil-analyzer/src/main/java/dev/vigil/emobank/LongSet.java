package dev.vigil.emobank;

import java.util.Arrays;

/**
 * An open-addressing set of 64-bit identities (the events already deposited), without boxing. Zero
 * is stored out of band so that it can be the empty-slot marker.
 */
final class LongSet {
  private long[] slots = new long[1 << 10];
  private int size;
  private boolean hasZero;

  /** Adds {@code v}; true when it was not there. */
  boolean add(long v) {
    if (v == 0) {
      boolean added = !hasZero;
      hasZero = true;
      return added;
    }
    if ((size + 1) * 2 > slots.length) {
      grow();
    }
    int mask = slots.length - 1;
    int i = mix(v) & mask;
    while (slots[i] != 0) {
      if (slots[i] == v) {
        return false;
      }
      i = (i + 1) & mask;
    }
    slots[i] = v;
    size++;
    return true;
  }

  /** Whether {@code v} is in the set. */
  boolean contains(long v) {
    if (v == 0) {
      return hasZero;
    }
    int mask = slots.length - 1;
    int i = mix(v) & mask;
    while (slots[i] != 0) {
      if (slots[i] == v) {
        return true;
      }
      i = (i + 1) & mask;
    }
    return false;
  }

  /** The number of identities. */
  int size() {
    return size + (hasZero ? 1 : 0);
  }

  /** The identities, in no particular order. */
  long[] toArray() {
    long[] out = new long[size()];
    int j = 0;
    for (long s : slots) {
      if (s != 0) {
        out[j++] = s;
      }
    }
    if (hasZero) {
      out[j] = 0;
    }
    return out;
  }

  private void grow() {
    long[] old = slots;
    slots = new long[old.length * 2];
    size = 0;
    Arrays.stream(old).filter(v -> v != 0).forEach(this::add);
  }

  private static int mix(long v) {
    long h = v * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32));
  }
}
