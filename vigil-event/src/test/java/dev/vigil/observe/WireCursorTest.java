package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * {@link WireCursor#readStopBit} against Chronicle's own {@code readStopBit}: the same number (or a
 * failure) and the same position after it, for numbers Chronicle wrote and for random bytes.
 */
class WireCursorTest {
  /** What one reading gave: its number, or a failure; and where the reading stopped. */
  private record Outcome(long value, boolean failed, long position) {}

  private static Outcome chronicle(Bytes<?> in) {
    long start = in.readPosition();
    try {
      long v = in.readStopBit();
      return new Outcome(v, false, in.readPosition() - start);
    } catch (RuntimeException e) {
      return new Outcome(0, true, -1);
    } finally {
      in.readPosition(start);
    }
  }

  private static Outcome ours(Bytes<?> in) {
    WireCursor c = WireCursor.of(in);
    try {
      long v = c.readStopBit();
      return new Outcome(v, false, c.position());
    } catch (RuntimeException e) {
      return new Outcome(0, true, -1);
    }
  }

  @Test
  void readsTheNumbersChronicleWroteAsChronicleReadsThem() {
    SplittableRandom random = new SplittableRandom(43);
    Bytes<?> b = Bytes.allocateElasticOnHeap(32);
    try {
      for (int n = 0; n < 20_000; n++) {
        long v =
            switch (random.nextInt(4)) {
              case 0 -> random.nextInt(300) - 150;
              case 1 -> random.nextLong() >> random.nextInt(64);
              case 2 -> random.nextBoolean() ? Long.MAX_VALUE : Long.MIN_VALUE;
              default -> random.nextLong();
            };
        b.clear();
        b.writeStopBit(v);
        Outcome ours = ours(b);
        assertEquals(chronicle(b), ours, "number " + v);
        assertEquals(v, ours.value());
      }
    } finally {
      b.releaseLast();
    }
  }

  @Test
  void refusesWhatChronicleRefusesAndReadsTheRestAlike() {
    SplittableRandom random = new SplittableRandom(47);
    Bytes<?> b = Bytes.allocateElasticDirect(32);
    int refused = 0;
    int read = 0;
    try {
      for (int n = 0; n < 50_000; n++) {
        b.clear();
        int length = random.nextInt(14);
        boolean continued = random.nextInt(3) > 0;
        for (int i = 0; i < length; i++) {
          // mostly bytes with the high bit set, so that long and cut-off numbers come often
          int v = continued ? 0x80 | random.nextInt(0x80) : random.nextInt(256);
          b.writeByte((byte) (i == length - 1 && random.nextInt(4) == 0 ? 0 : v));
        }
        Outcome chronicle = chronicle(b);
        String bytes = b.toHexString();
        assertEquals(chronicle, ours(b), () -> "bytes " + bytes);
        if (chronicle.failed()) {
          refused++;
        } else {
          read++;
        }
      }
    } finally {
      b.releaseLast();
    }
    assertTrue(refused > 1_000 && read > 1_000, "refused " + refused + ", read " + read);
  }
}
