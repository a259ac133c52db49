package dev.vigil.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * What the analyzer creates is its user's alone (docs/SECURITY.md): directories {@code 0700} and
 * files {@code 0600} on a POSIX file system, the platform's defaults elsewhere. The bank and the
 * reports hold what the agent captured (arguments, results, the user's words).
 */
public final class OwnerOnly {
  private static final FileAttribute<Set<PosixFilePermission>> DIRECTORY =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));

  private static final FileAttribute<Set<PosixFilePermission>> FILE =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

  private OwnerOnly() {}

  /**
   * Creates {@code dir} and its missing parents, each created {@code 0700}; an existing directory
   * keeps its mode.
   */
  public static Path createDirectories(Path dir) throws IOException {
    if (Files.isDirectory(dir)) {
      return dir;
    }
    return posix(dir) ? Files.createDirectories(dir, DIRECTORY) : Files.createDirectories(dir);
  }

  /**
   * Creates the new, empty file {@code file}, {@code 0600}.
   *
   * @throws java.nio.file.FileAlreadyExistsException when it exists
   */
  public static Path createFile(Path file) throws IOException {
    return posix(file) ? Files.createFile(file, FILE) : Files.createFile(file);
  }

  /** Creates {@code file} empty and {@code 0600} unless it exists; an existing file is left. */
  public static void createFileIfMissing(Path file) throws IOException {
    if (!Files.exists(file)) {
      try {
        createFile(file);
      } catch (java.nio.file.FileAlreadyExistsException raced) {
        // created meanwhile: left as it is
      }
    }
  }

  private static boolean posix(Path p) {
    return p.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
