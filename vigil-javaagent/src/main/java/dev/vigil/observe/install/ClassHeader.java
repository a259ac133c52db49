package dev.vigil.observe.install;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The few facts {@link CandidateFilter} reads from a class file before the instrumenter sees it:
 * whether one of a few strings is a constant of the class (an annotation's type descriptor is one
 * when the annotation is used), and the names of the direct superclass and interfaces, in internal
 * form ({@code java/lang/Object}). It walks the constant pool once (JVM specification, section
 * 4.4), never the fields, methods or code behind it, and decodes only the names it returns; pure
 * JDK, no class is loaded. The filter reads every class the application loads, so this is the
 * per-class cost of Vigil on the application's threads.
 */
final class ClassHeader {
  private static final int MAGIC = 0xCAFEBABE;
  private static final ClassHeader UNREADABLE = new ClassHeader(new byte[0], new int[0], -1, false);

  private final byte[] b;

  /** Where each constant pool entry starts, by index. */
  private final int[] offsets;

  /** Where the constant pool ends: the access flags; -1 when the class file cannot be read. */
  private final int end;

  private final boolean mentions;

  private ClassHeader(byte[] b, int[] offsets, int end, boolean mentions) {
    this.b = b;
    this.offsets = offsets;
    this.end = end;
    this.mentions = mentions;
  }

  /**
   * Reads the constant pool of a class file, noting whether one of its UTF-8 constants equals one
   * of {@code constants} (encoded as the class file encodes them, plain UTF-8 for ASCII).
   */
  static ClassHeader read(byte[] b, byte[][] constants) {
    try {
      if (readInt(b, 0) != MAGIC) {
        return UNREADABLE;
      }
      int count = readShort(b, 8);
      int[] offsets = new int[count];
      boolean mentions = false;
      int p = 10;
      for (int i = 1; i < count; i++) {
        offsets[i] = p;
        int tag = b[p] & 0xFF;
        switch (tag) {
          case 1 -> { // Utf8
            int length = readShort(b, p + 1);
            if (!mentions) {
              mentions = equalsAny(b, p + 3, length, constants);
            }
            p += 3 + length;
          }
          case 3, 4 -> p += 5; // Integer, Float
          case 5, 6 -> { // Long, Double take two slots
            p += 9;
            i++;
          }
          case 7, 8, 16, 19, 20 -> p += 3; // Class, String, MethodType, Module, Package
          case 9, 10, 11, 12, 17, 18 -> p += 5; // refs, NameAndType, Dynamic, InvokeDynamic
          case 15 -> p += 4; // MethodHandle
          default -> {
            return UNREADABLE;
          }
        }
      }
      return new ClassHeader(b, offsets, p, mentions);
    } catch (RuntimeException malformed) {
      return UNREADABLE;
    }
  }

  /**
   * The direct supertypes named by a class file (superclass first), or an empty list when it cannot
   * be read.
   */
  static List<String> supertypes(byte[] b) {
    return read(b, new byte[0][]).supertypes();
  }

  /** Whether one of the constants asked for is in the constant pool. */
  boolean mentions() {
    return mentions;
  }

  /**
   * The direct supertypes (superclass first), or an empty list when the class file cannot be read.
   */
  List<String> supertypes() {
    if (end < 0) {
      return List.of();
    }
    try {
      int superIndex = readShort(b, end + 4);
      int interfaces = readShort(b, end + 6);
      List<String> out = new ArrayList<>(interfaces + 1);
      if (superIndex != 0) {
        out.add(className(superIndex));
      }
      for (int i = 0; i < interfaces; i++) {
        out.add(className(readShort(b, end + 8 + 2 * i)));
      }
      return out;
    } catch (RuntimeException malformed) {
      return List.of();
    }
  }

  private static boolean equalsAny(byte[] b, int at, int length, byte[][] constants) {
    for (byte[] c : constants) {
      if (c.length == length && regionEquals(b, at, c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean regionEquals(byte[] b, int at, byte[] c) {
    for (int j = c.length - 1; j >= 0; j--) {
      if (b[at + j] != c[j]) {
        return false;
      }
    }
    return true;
  }

  private String className(int classIndex) {
    int utf8 = offsets[readShort(b, offsets[classIndex] + 1)];
    // class names are plain UTF-8 but for the NUL and supplementary characters no class name has
    return new String(b, utf8 + 3, readShort(b, utf8 + 1), StandardCharsets.UTF_8);
  }

  private static int readShort(byte[] b, int at) {
    return ((b[at] & 0xFF) << 8) | (b[at + 1] & 0xFF);
  }

  private static int readInt(byte[] b, int at) {
    return (readShort(b, at) << 16) | readShort(b, at + 2);
  }
}
