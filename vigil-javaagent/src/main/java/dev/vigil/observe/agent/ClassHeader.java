package dev.vigil.observe.agent;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The few facts {@link StartupGate} reads from a class file before Byte Buddy is ready: the names of the direct
 * superclass and interfaces, in internal form ({@code java/lang/Object}). It walks the constant pool once (JVM
 * specification, section 4.4) and decodes only the names it returns; pure JDK, no class is loaded.
 */
final class ClassHeader {
  private static final int MAGIC = 0xCAFEBABE;

  private ClassHeader() {}

  /** The direct supertypes named by a class file (superclass first), or an empty list when it cannot be read. */
  static List<String> supertypes(byte[] b) {
    try {
      if (readInt(b, 0) != MAGIC) {
        return List.of();
      }
      int count = readShort(b, 8);
      int[] offsets = new int[count];
      int p = 10;
      for (int i = 1; i < count; i++) {
        offsets[i] = p;
        int tag = b[p] & 0xFF;
        switch (tag) {
          case 1 -> p += 3 + readShort(b, p + 1);           // Utf8
          case 3, 4 -> p += 5;                              // Integer, Float
          case 5, 6 -> {                                    // Long, Double take two slots
            p += 9;
            i++;
          }
          case 7, 8, 16, 19, 20 -> p += 3;                  // Class, String, MethodType, Module, Package
          case 9, 10, 11, 12, 17, 18 -> p += 5;             // refs, NameAndType, Dynamic, InvokeDynamic
          case 15 -> p += 4;                                // MethodHandle
          default -> {
            return List.of();
          }
        }
      }
      int superIndex = readShort(b, p + 4);
      int interfaces = readShort(b, p + 6);
      List<String> out = new ArrayList<>(interfaces + 1);
      if (superIndex != 0) {
        out.add(className(b, offsets, superIndex));
      }
      for (int i = 0; i < interfaces; i++) {
        out.add(className(b, offsets, readShort(b, p + 8 + 2 * i)));
      }
      return out;
    } catch (RuntimeException malformed) {
      return List.of();
    }
  }

  /** Whether {@code needle} occurs in {@code haystack}. */
  static boolean contains(byte[] haystack, byte[] needle) {
    int last = haystack.length - needle.length;
    byte first = needle[0];
    outer:
    for (int i = 0; i <= last; i++) {
      if (haystack[i] != first) {
        continue;
      }
      for (int j = 1; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private static String className(byte[] b, int[] offsets, int classIndex) {
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
