package dev.vigil.observe;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32;

/**
 * The spill files of a queue: the events of a process that ended before its agent had opened the
 * queue, written at its exit to a small file of their own, so that a short process never waits for
 * Chronicle to open (docs/DESIGN.md#spill-files). {@link SpillImport} moves them into the queue.
 *
 * <p>A spill file is {@code VSP1}, the number of excerpts (a 4-byte big-endian int), each excerpt
 * as its length (the same) and its bytes, exactly as the writer would have appended it, and a
 * CRC-32 of all before it (8 bytes). It is written under a temporary name and renamed, so it
 * appears whole or not at all. Spilling needs no more of Chronicle than the agent has loaded.
 */
public final class SpillFiles {
  /** The queue directory's subdirectory that holds the spill files. */
  public static final String DIR = "spill";

  static final String SUFFIX = ".spill";
  static final String CLAIM = ".claim";
  static final String DAMAGED = ".damaged";
  static final String LOCK_FILE = ".lock";
  private static final byte[] MAGIC = {'V', 'S', 'P', '1'};

  private SpillFiles() {}

  /**
   * Writes {@code excerpts} (each the bytes of one excerpt, as the writer would append it) to a new
   * spill file of {@code queueDir}, owner-only; it appears whole or not at all.
   *
   * @return the file written
   */
  public static Path write(Path queueDir, List<byte[]> excerpts, long pid) throws IOException {
    Path dir = queueDir.resolve(DIR);
    OwnerOnly.createDirectories(dir);
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(buffer);
    out.write(MAGIC);
    out.writeInt(excerpts.size());
    for (byte[] e : excerpts) {
      out.writeInt(e.length);
      out.write(e);
    }
    CRC32 crc = new CRC32();
    crc.update(buffer.toByteArray());
    out.writeLong(crc.getValue());
    String name =
        pid + "-" + System.currentTimeMillis() + "-" + Long.toHexString(System.nanoTime());
    Path file = dir.resolve(name + SUFFIX);
    OwnerOnly.write(file, buffer.toByteArray());
    return file;
  }

  /** Whether {@code queueDir} has spill files waiting for their import. */
  public static boolean pending(Path queueDir) {
    Path dir = queueDir.resolve(DIR);
    if (!Files.isDirectory(dir)) {
      return false;
    }
    return !spills(dir).isEmpty();
  }

  /**
   * The excerpts of a spill file, checked whole.
   *
   * @throws IllegalArgumentException when it is damaged: not a spill file, cut short, or changed
   */
  static byte[][] read(Path spill) throws IOException {
    byte[] all = Files.readAllBytes(spill);
    ByteBuffer in = ByteBuffer.wrap(all);
    if (all.length < MAGIC.length + Integer.BYTES + Long.BYTES
        || !Arrays.equals(Arrays.copyOf(all, MAGIC.length), MAGIC)) {
      throw new IllegalArgumentException("not a spill file");
    }
    CRC32 crc = new CRC32();
    crc.update(all, 0, all.length - Long.BYTES);
    if (crc.getValue() != in.getLong(all.length - Long.BYTES)) {
      throw new IllegalArgumentException("its checksum does not match its bytes");
    }
    in.position(MAGIC.length);
    int n = in.getInt();
    if (n < 0 || n > all.length) {
      throw new IllegalArgumentException("it names " + n + " excerpts");
    }
    byte[][] excerpts = new byte[n][];
    for (int j = 0; j < n; j++) {
      int length = in.getInt();
      if (length <= 0 || length > in.remaining() - Long.BYTES) {
        throw new IllegalArgumentException("excerpt " + j + " is cut short");
      }
      excerpts[j] = new byte[length];
      in.get(excerpts[j]);
    }
    return excerpts;
  }

  /** The spill files waiting in the spill directory {@code dir}, oldest name first. */
  static List<Path> spills(Path dir) {
    return list(dir, SUFFIX);
  }

  /** The files of {@code dir} whose name ends with {@code suffix}, by name. */
  static List<Path> list(Path dir, String suffix) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (NoSuchFileException gone) {
      return List.of();
    } catch (IOException e) {
      throw new IllegalStateException(
          "spill directory " + dir + " cannot be listed: " + e.getMessage(), e);
    }
  }
}
