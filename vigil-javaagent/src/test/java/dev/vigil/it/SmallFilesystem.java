package dev.vigil.it;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A small tmpfs mounted for a test, which can be filled to the last bytes, freed again and made
 * read-only. Mounting needs root and a kernel that lets this process mount: where it cannot, the
 * test is skipped with the reason ({@link Assumptions#abort}).
 */
public final class SmallFilesystem implements AutoCloseable {
  private final Path dir;
  private final Path filler;

  private SmallFilesystem(Path dir) {
    this.dir = dir;
    this.filler = dir.resolve(".filler");
  }

  /** Mounts a tmpfs of {@code size} (as {@code mount} reads it: {@code 2m}) on {@code dir}. */
  public static SmallFilesystem mount(Path dir, String size)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    String result = exec("mount", "-t", "tmpfs", "-o", "size=" + size, "tmpfs", dir.toString());
    if (result != null) {
      Assumptions.abort("cannot mount a small tmpfs here (needs root and mount): " + result);
    }
    return new SmallFilesystem(dir);
  }

  public Path dir() {
    return dir;
  }

  /** Fills the filesystem, then frees the last {@code leave} bytes of the filler again. */
  public void fill(long leave) throws IOException {
    byte[] block = new byte[4096];
    long written = 0;
    try (OutputStream out = Files.newOutputStream(filler)) {
      while (true) {
        out.write(block);
        written += block.length;
      }
    } catch (IOException full) {
      // the filesystem is full
    }
    try (FileChannel c = FileChannel.open(filler, StandardOpenOption.WRITE)) {
      c.truncate(Math.max(0, Math.min(c.size(), written) - leave));
    }
  }

  /** Removes the filler: the space comes back. */
  public void free() throws IOException {
    Files.deleteIfExists(filler);
  }

  /** Remounts the filesystem read-only (even root cannot write to it then). */
  public void readOnly() throws IOException, InterruptedException {
    String result = exec("mount", "-o", "remount,ro", dir.toString());
    if (result != null) {
      throw new IOException("cannot remount " + dir + " read-only: " + result);
    }
  }

  @Override
  public void close() throws IOException {
    try {
      exec("umount", "-l", dir.toString());
    } catch (InterruptedException e) {
      Thread.currentThread()
          .interrupt(); // interrupted: the tmpfs stays mounted, the interrupt is kept
    }
  }

  /** Runs a command; null when it succeeded, else what it printed and its exit code. */
  private static String exec(String... command) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(command));
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException notThere) {
      return command[0] + " cannot be run: " + notThere.getMessage();
    }
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (!p.waitFor(1, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return String.join(" ", cmd) + " did not finish";
    }
    return p.exitValue() == 0
        ? null
        : String.join(" ", cmd) + ": exit " + p.exitValue() + " " + out;
  }
}
