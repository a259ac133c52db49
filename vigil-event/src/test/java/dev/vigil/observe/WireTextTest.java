package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.Function;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link WireText}, reading from a {@link WireCursor} of the bytes, against Chronicle's own {@code
 * readUtf8}: the same string (or null, or failure) and the same position after it, for strings
 * Chronicle wrote and for random bytes, from memory on the heap and outside it (Chronicle reads the
 * two differently).
 */
class WireTextTest {
  /** What one reading gave: its string, or the failure; and where the reading stopped. */
  private record Outcome(String value, boolean failed, long position) {}

  private static Outcome outcome(Bytes<?> in, Function<Bytes<?>, String> reader) {
    long start = in.readPosition();
    try {
      String v = reader.apply(in);
      return new Outcome(v, false, in.readPosition() - start);
    } catch (RuntimeException e) {
      return new Outcome(null, true, -1);
    } finally {
      in.readPosition(start);
    }
  }

  /**
   * {@link WireText#read} from a cursor of what is left of {@code in}, which then moves past it.
   */
  private static String read(Bytes<?> in) {
    WireCursor c = WireCursor.of(in);
    String s = WireText.read(c);
    in.readSkip(c.position());
    return s;
  }

  /**
   * {@link WireText#skip} from a cursor of what is left of {@code in}, which then moves past it.
   */
  private static boolean skip(Bytes<?> in) {
    WireCursor c = WireCursor.of(in);
    boolean present = WireText.skip(c);
    in.readSkip(c.position());
    return present;
  }

  private static Bytes<?> bytes(boolean direct) {
    return direct ? Bytes.allocateElasticDirect(64) : Bytes.allocateElasticOnHeap(64);
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void readsWhatChronicleWroteAsChronicleReadsIt(boolean direct) {
    SplittableRandom random = new SplittableRandom(29);
    Bytes<?> b = bytes(direct);
    try {
      for (int n = 0; n < 5_000; n++) {
        String s = randomString(random);
        b.clear();
        b.writeUtf8(s);
        Outcome chronicle = outcome(b, Bytes::readUtf8);
        Outcome ours = outcome(b, WireTextTest::read);
        assertEquals(chronicle, ours, () -> "string " + escape(s));
        assertEquals(s, ours.value());
        assertTrue(skip(b));
        assertEquals(0, b.readRemaining());
      }
    } finally {
      b.releaseLast();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void refusesWhatChronicleRefusesAndReadsTheRestAlike(boolean direct) {
    SplittableRandom random = new SplittableRandom(31);
    Bytes<?> b = bytes(direct);
    int refused = 0;
    int read = 0;
    try {
      for (int n = 0; n < 20_000; n++) {
        b.clear();
        int length = random.nextInt(12);
        switch (random.nextInt(8)) {
          case 0 -> b.writeStopBit(-1 - random.nextInt(3)); // null, or lengths out of range
          case 1 -> b.writeStopBit(length + 1 + random.nextInt(4)); // beyond what follows
          case 2 -> b.writeStopBit(random.nextLong());
          default -> b.writeStopBit(length);
        }
        for (int i = 0; i < length; i++) {
          int pick = random.nextInt(4);
          b.writeByte((byte) (pick == 0 ? random.nextInt(0x80) : random.nextInt(256)));
        }
        Outcome chronicle = outcome(b, Bytes::readUtf8);
        Outcome ours = outcome(b, WireTextTest::read);
        String bytes = b.toHexString();
        assertEquals(chronicle, ours, () -> "bytes " + bytes);
        Outcome skipped =
            outcome(
                b,
                in -> {
                  boolean present = skip(in);
                  return present ? "present" : null;
                });
        assertEquals(ours.failed(), skipped.failed(), () -> "skip of " + bytes);
        assertEquals(ours.position(), skipped.position(), () -> "skip of " + bytes);
        if (ours.failed()) {
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

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void nullAndTheEndOfTheInputReadAsChronicleReadsThem(boolean direct) {
    Bytes<?> b = bytes(direct);
    try {
      b.writeUtf8(null);
      assertNull(read(b));
      assertEquals("", read(b)); // nothing left: Chronicle reads an empty string
      assertEquals("", b.readUtf8());
      b.clear();
      b.writeUtf8(null);
      assertFalse(skip(b));
      assertTrue(skip(b));
    } finally {
      b.releaseLast();
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aShortStringReadAgainIsTheStringReadBeforeAndAnotherWithItsHashIsNot(boolean direct) {
    Bytes<?> b = bytes(direct);
    try {
      for (String s : new String[] {"robin", "Aa", "BB", "robin", "BB", "Aa"}) {
        b.writeUtf8(s); // "Aa" and "BB" have the same hash, so the same place in the table
      }
      String robin = read(b);
      assertEquals("Aa", read(b));
      assertEquals("BB", read(b));
      assertSame(robin, read(b));
      assertEquals("BB", read(b));
      assertEquals("Aa", read(b));
    } finally {
      b.releaseLast();
    }
  }

  /** ASCII, Latin-1, other BMP chars and lone surrogates; sometimes longer than the scratch. */
  private static String randomString(SplittableRandom random) {
    int n = random.nextInt(20) == 0 ? 4_000 + random.nextInt(400) : random.nextInt(40);
    StringBuilder s = new StringBuilder(n);
    int kind = random.nextInt(4);
    for (int i = 0; i < n; i++) {
      char c =
          switch (kind == 3 ? random.nextInt(4) : kind) {
            case 0 -> (char) random.nextInt(0x80);
            case 1 -> (char) random.nextInt(0x100);
            case 2 -> (char) random.nextInt(0x10000);
            default -> (char) (0xD800 + random.nextInt(0x800));
          };
      s.append(c);
    }
    return s.toString();
  }

  private static String escape(String s) {
    StringBuilder out = new StringBuilder();
    s.chars().forEach(c -> out.append(c < 0x80 ? String.valueOf((char) c) : "\\u" + c));
    return out.toString();
  }
}
