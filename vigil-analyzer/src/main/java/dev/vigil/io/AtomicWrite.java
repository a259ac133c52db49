package dev.vigil.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replaces a file all at once: the bytes go to a temporary file in the same directory, which is
 * then moved over the target, so a reader sees the old file or the new one, never half of one. The
 * one place the analyzer does this.
 */
public final class AtomicWrite {
  private AtomicWrite() {}

  /**
   * Writes {@code bytes} as {@code target}, replacing it when it exists; creates the parent
   * directory.
   */
  public static void replace(Path target, byte[] bytes) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    OwnerOnly.createDirectories(dir);
    // a fresh name, created and written in one opening (watch commits a bank every few
    // milliseconds)
    Path tmp =
        dir.resolve(
            "."
                + target.getFileName()
                + "."
                + Long.toUnsignedString(ThreadLocalRandom.current().nextLong())
                + ".tmp");
    try {
      OwnerOnly.createFile(tmp); // new (a fresh name), 0600: the target becomes owner-only
      Files.write(tmp, bytes, StandardOpenOption.WRITE);
      move(tmp, target);
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
  }

  /** Writes {@code text} in UTF-8 as {@code target}; see {@link #replace(Path, byte[])}. */
  public static void replace(Path target, String text) throws IOException {
    replace(target, text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Moves a finished file of the same directory over {@code target} in one step (for content
   * written as a stream); where the file system cannot move atomically, a plain replacing move.
   */
  public static void move(Path finished, Path target) throws IOException {
    try {
      Files.move(
          finished, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(finished, target, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
