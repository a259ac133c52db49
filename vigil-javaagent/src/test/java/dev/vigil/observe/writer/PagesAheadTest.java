package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Zeros written ahead of the appends: only past the write position, never below it, never past the
 * file's length, and nothing at all where the file system is short of room or the file cannot be
 * written.
 */
class PagesAheadTest {
  private static final byte DATA = 0x5A;
  private static final long PLENTY = Long.MAX_VALUE;

  @TempDir Path tmp;

  /** A file of {@code length} bytes, every one {@link #DATA}. */
  private File dataFile(long length) throws IOException {
    File f = tmp.resolve("day.cq4").toFile();
    byte[] chunk = new byte[1 << 20];
    Arrays.fill(chunk, DATA);
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      for (long p = 0; p < length; p += chunk.length) {
        raf.write(chunk, 0, (int) Math.min(chunk.length, length - p));
      }
    }
    return f;
  }

  private static byte[] read(File f, long from, int length) throws IOException {
    byte[] b = new byte[length];
    try (RandomAccessFile raf = new RandomAccessFile(f, "r")) {
      raf.seek(from);
      raf.readFully(b);
    }
    return b;
  }

  private static void assertAll(byte expected, byte[] bytes, String what) {
    for (int i = 0; i < bytes.length; i++) {
      assertEquals(expected, bytes[i], what + ", byte " + i);
    }
  }

  @Test
  void aFillWritesAChunkOfZerosFromThePageAfterTheWritePositionAndTheFileKeepsItsLength()
      throws IOException {
    long length = 32L << 20;
    File f = dataFile(length);
    PagesAhead ahead = new PagesAhead();
    long position = 100_000; // within the page that starts at 98,304

    ahead.fill(f, position, PLENTY);

    assertAll(DATA, read(f, 0, 102_400), "below the write position's page end");
    long end = 102_400 + PagesAhead.CHUNK;
    assertEquals(end, ahead.filledTo());
    assertAll((byte) 0, read(f, 102_400, (int) PagesAhead.CHUNK), "the chunk");
    assertAll(DATA, read(f, end, 4096), "past the chunk");
    assertEquals(length, f.length());
    assertFalse(ahead.due(PagesAhead.RAMP), "the lead is built up a chunk at a time");
    assertTrue(ahead.due(1));
  }

  @Test
  void fillsBuildTheLeadNeverReachBelowTheWritePositionNorBeyondTheFile() throws IOException {
    long length = 32L << 20;
    File f = dataFile(length);
    PagesAhead ahead = new PagesAhead();
    long before;
    do {
      before = ahead.filledTo();
      ahead.fill(f, 0, PLENTY);
    } while (ahead.filledTo() > before);
    long lead = PagesAhead.LEAD + PagesAhead.CHUNK;
    assertEquals(lead, ahead.filledTo(), "a chunk beyond the lead, no further");
    assertAll(DATA, read(f, lead, 4096), "past it");
    assertFalse(ahead.due(PagesAhead.CHUNK), "not due while the lead is filled");
    assertTrue(ahead.due(1), "due once fewer than the lead are filled");

    // events appended into the zeros, past where the fills ended
    long position = lead + 8192;
    try (RandomAccessFile raf = new RandomAccessFile(f, "rw")) {
      byte[] events = new byte[(int) (position - 4096)];
      Arrays.fill(events, DATA);
      raf.seek(4096);
      raf.write(events);
    }
    ahead.fill(f, position, PLENTY);
    assertAll(DATA, read(f, 4096, (int) (position - 4096)), "the events below the position");
    assertAll((byte) 0, read(f, position, (int) PagesAhead.CHUNK), "the chunk after them");

    do {
      before = ahead.filledTo();
      ahead.fill(f, position, PLENTY);
    } while (ahead.filledTo() > before);
    assertEquals(length, ahead.filledTo(), "the file's end, never past it");
    assertAll((byte) 0, read(f, length - 4096, 4096), "the file's last page");
    assertEquals(length, f.length());
    assertFalse(ahead.due(PagesAhead.STEP), "at the file's end, looked at again after a step");
    assertTrue(ahead.due(1));
  }

  @Test
  void theFirstFillIsDueOnlyOnceAStepOfEventsIsAppended() {
    PagesAhead ahead = new PagesAhead();
    assertFalse(ahead.due(PagesAhead.STEP), "a process that writes a few events writes no zeros");
    assertTrue(ahead.due(1));
  }

  @Test
  void aFileSystemShortOfRoomGetsNoZeros() throws IOException {
    File f = dataFile(8 << 20);
    PagesAhead ahead = new PagesAhead();

    ahead.fill(f, 0, PagesAhead.MIN_FREE - 1);

    assertEquals(0, ahead.filledTo());
    assertAll(DATA, read(f, 0, 8 << 20), "the whole file");
    assertFalse(ahead.due(PagesAhead.RETRY), "not looked at again at once");
    assertTrue(ahead.due(1));
  }

  @Test
  void aFileItCannotOpenStopsItQuietlyUntilTheQueueMovesOnToAnotherFile() throws IOException {
    PagesAhead ahead = new PagesAhead();
    File missing = tmp.resolve("no-such-dir").resolve("day.cq4").toFile();

    ahead.fill(missing, 0, PLENTY);
    assertEquals(0, ahead.filledTo());
    ahead.fill(missing, 0, PLENTY);
    assertEquals(0, ahead.filledTo(), "not tried again for the same file");

    File next = dataFile(1 << 20);
    ahead.fill(next, 0, PLENTY);
    assertEquals(1 << 20, ahead.filledTo(), "the whole of the next file, a chunk");
    assertAll((byte) 0, read(next, 0, 1 << 20), "the next file");
    ahead.close();
  }
}
