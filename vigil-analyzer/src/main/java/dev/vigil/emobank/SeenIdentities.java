package dev.vigil.emobank;

import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The identities of the events deposited into a bank, which make deposits exactly-once, and their
 * file {@code seen-N.bin} (8 bytes each). The first commit of an opened bank writes every identity
 * to a new file; later commits append only the identities deposited since, so a commit costs the
 * same however large the bank is. The checkpoint counts the committed identities: those past the
 * count were appended by a commit that did not happen. The file appended to stays open between
 * commits ({@code watch} commits every few milliseconds) until {@link #close}.
 */
final class SeenIdentities implements AutoCloseable {
  private final LongSet set;

  /**
   * The identity file named by the last commit; {@link #appendable} when this bank wrote it whole.
   */
  private String file;

  private boolean appendable;

  /** {@link #file}, open for appending once a commit appended to it; null otherwise. */
  private FileChannel appending;

  private ByteBuffer appendBuffer = ByteBuffer.allocate(64 * Long.BYTES);

  /** Identities deposited since the last commit, in the order deposited. */
  private long[] fresh = new long[64];

  private int freshCount;

  private SeenIdentities(LongSet set, String file) {
    this.set = set;
    this.file = file;
  }

  /** None yet. */
  static SeenIdentities none() {
    return new SeenIdentities(new LongSet(), null);
  }

  /**
   * The committed identities of the file {@code name} in {@code dir}: its first {@code count} (all
   * of it when the checkpoint gives no count, -1); none when {@code name} is null.
   *
   * @throws BankCorruptException when the file is missing, cut short or not whole identities
   */
  static SeenIdentities read(Path dir, String name, long count) throws IOException {
    LongSet set = new LongSet();
    if (name == null) {
      return new SeenIdentities(set, null);
    }
    Path path = dir.resolve(name);
    if (!Files.exists(path)) {
      throw new BankCorruptException(path, 0, "is named by " + EmoBank.CHECKPOINT + " but missing");
    }
    long size = Files.size(path);
    if (count < 0 && size % Long.BYTES != 0) {
      throw new BankCorruptException(
          path, 0, "has " + size + " bytes, not a whole number of identities");
    }
    long committed = count < 0 ? size / Long.BYTES : count;
    if (size < committed * Long.BYTES) {
      throw new BankCorruptException(
          path,
          0,
          "has "
              + size / Long.BYTES
              + " identities but "
              + EmoBank.CHECKPOINT
              + " counts "
              + committed
              + "; it was cut short outside Vigil. Restore it from a backup");
    }
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(path)))) {
      for (long i = 0; i < committed; i++) {
        set.add(in.readLong());
      }
    }
    return new SeenIdentities(set, name);
  }

  /** Adds an identity; false when it was there already. */
  boolean add(long identity) {
    if (!set.add(identity)) {
      return false;
    }
    if (freshCount == fresh.length) {
      fresh = Arrays.copyOf(fresh, freshCount * 2);
    }
    fresh[freshCount++] = identity;
    return true;
  }

  boolean contains(long identity) {
    return set.contains(identity);
  }

  int size() {
    return set.size();
  }

  /** The identity file named by the last commit, or null. */
  String file() {
    return file;
  }

  /**
   * Records the identities in {@code dir} for the commit of generation {@code next}: appends the
   * fresh ones to the file this bank wrote, or writes them all to a new {@code seen-<next>.bin};
   * returns the file's name. The checkpoint that counts them is written after, by the caller.
   */
  String commit(Path dir, long next) throws IOException {
    if (appendable) {
      if (freshCount > 0) {
        try {
          append(dir);
        } catch (IOException e) {
          appendable = false; // part of them may be in the file: the next commit writes a new one
          close();
          throw e;
        }
      }
    } else {
      close();
      String name = "seen-" + next + ".bin";
      Path tmp = dir.resolve(name + ".tmp");
      OwnerOnly.createFileIfMissing(tmp);
      try (DataOutputStream out =
          new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
        for (long id : set.toArray()) {
          out.writeLong(id);
        }
      } catch (IOException | RuntimeException e) {
        Files.deleteIfExists(tmp); // never half an identity file left behind (a disk that filled)
        throw e;
      }
      AtomicWrite.move(tmp, dir.resolve(name));
      file = name;
      appendable = true;
    }
    freshCount = 0;
    return file;
  }

  private void append(Path dir) throws IOException {
    if (appending == null) {
      appending =
          FileChannel.open(dir.resolve(file), StandardOpenOption.WRITE, StandardOpenOption.APPEND);
    }
    if (appendBuffer.capacity() < freshCount * Long.BYTES) {
      appendBuffer = ByteBuffer.allocate(fresh.length * Long.BYTES);
    }
    appendBuffer.clear();
    for (int i = 0; i < freshCount; i++) {
      appendBuffer.putLong(fresh[i]);
    }
    appendBuffer.flip();
    while (appendBuffer.hasRemaining()) {
      appending.write(appendBuffer);
    }
  }

  /**
   * Undoes a commit that failed before its checkpoint: removes the identity file it wrote, or cuts
   * the file it appended to back to the {@code count} identities the last checkpoint counts (-1:
   * all of it). The identities in memory are those of the failed pass still: the bank is opened
   * again before its next deposit.
   */
  void rollBack(Path dir, String committedFile, long count) throws IOException {
    close();
    appendable = false;
    if (file != null && !file.equals(committedFile)) {
      Files.deleteIfExists(dir.resolve(file));
    }
    file = committedFile;
    if (committedFile != null && count >= 0) {
      Path path = dir.resolve(committedFile);
      if (Files.exists(path) && Files.size(path) > count * Long.BYTES) {
        try (FileChannel c = FileChannel.open(path, StandardOpenOption.WRITE)) {
          c.truncate(count * Long.BYTES);
          c.force(true);
        }
      }
    }
  }

  /** Closes the file kept open for appending, if any; the next commit opens it again. */
  @Override
  public void close() {
    if (appending != null) {
      try {
        appending.close();
      } catch (IOException ignored) {
        // nothing was left unwritten: every append wrote through before returning
      }
      appending = null;
    }
  }
}
