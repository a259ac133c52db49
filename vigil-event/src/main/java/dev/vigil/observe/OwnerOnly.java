package dev.vigil.observe;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Directories and files only their owner may read (docs/SECURITY.md): the events hold what the
 * application's tools were given and returned. On a file system without POSIX permissions they are
 * created as the system creates them. Nothing here loads Chronicle, so an agent that spills at exit
 * without ever opening the queue does not load it for this.
 */
public final class OwnerOnly {
  private OwnerOnly() {}

  /** Creates the directory {@code dir} and its missing parents {@code 0700}. */
  public static void createDirectories(Path dir) throws IOException {
    if (posix(dir)) {
      Files.createDirectories(
          dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    } else {
      Files.createDirectories(dir);
    }
  }

  /** Creates the empty file {@code file} {@code 0600}, unless it exists. */
  public static void createFile(Path file) throws IOException {
    try {
      if (posix(file)) {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } else {
        Files.createFile(file);
      }
    } catch (FileAlreadyExistsException exists) {
      // left as it is
    }
  }

  /**
   * Writes {@code file} {@code 0600} under a temporary name, then renames it into place, so that it
   * appears whole or not at all. The file is made by a plain file stream and restricted before a
   * byte is written to it: the file channel behind {@code Files.write} and {@code Files.createFile}
   * is a score of classes and a native library for a short process to load at its exit. Meant for
   * files of an owner-only directory, where no one else can open the file before it is restricted.
   */
  public static void write(Path file, byte[] bytes) throws IOException {
    Path temp = file.resolveSibling("." + file.getFileName() + ".tmp");
    Files.deleteIfExists(temp);
    try (OutputStream out = new FileOutputStream(temp.toFile())) {
      if (posix(temp)) {
        Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rw-------"));
      }
      out.write(bytes);
    }
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
  }

  /** Makes {@code file} readable and writable by its owner only, if it can. */
  public static void restrict(Path file) {
    try {
      if (posix(file)) {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      }
    } catch (IOException | RuntimeException notOurs) {
      // another user's file, or one that is gone: left as it is
    }
  }

  private static boolean posix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }
}
