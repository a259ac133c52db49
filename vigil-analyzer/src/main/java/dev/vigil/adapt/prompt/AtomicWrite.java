package dev.vigil.adapt.prompt;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Replaces a file all at once: the bytes go to a temporary file in the same directory, which is then moved over the
 * target, so a reader sees the old file or the new one, never half of one.
 */
final class AtomicWrite {
  private AtomicWrite() {}

  /** Writes {@code bytes} as {@code target}, replacing it when it exists. */
  static void replace(Path target, byte[] bytes) throws IOException {
    Path dir = target.toAbsolutePath().getParent();
    Path tmp = Files.createTempFile(dir, "." + target.getFileName() + ".", ".tmp");
    try {
      Files.write(tmp, bytes);
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }
}
