package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spill files reach the queue exactly once: whole on a first import, not again on a second, and
 * only the missing excerpts when an import stopped half-way; a damaged one is set aside.
 */
class SpillImportTest {
  @TempDir Path tmp;

  private static List<Event> events(long seed, int n) {
    return new RandomEvents(seed, 0).next(n);
  }

  private static byte[] bytesOf(Event e) {
    Bytes<?> b = Bytes.allocateElasticOnHeap();
    EventWire.write(b, e, EventWire.payloadBytes(e.payload()));
    return b.toByteArray();
  }

  /** Three excerpts: a batch of two events, one event alone, a batch of three. */
  private static List<byte[]> excerptsOf(List<Event> e) {
    return List.of(
        ExcerptEvents.batchOf(List.of(bytesOf(e.get(0)), bytesOf(e.get(1)))),
        bytesOf(e.get(2)),
        ExcerptEvents.batchOf(List.of(bytesOf(e.get(3)), bytesOf(e.get(4)), bytesOf(e.get(5)))));
  }

  private static List<Event> read(Path queue) throws Exception {
    return TailerEvents.all(queue);
  }

  private static List<String> spillDirFiles(Path queue) throws Exception {
    try (Stream<Path> files = Files.list(queue.resolve(SpillFiles.DIR))) {
      return files.map(f -> f.getFileName().toString()).filter(n -> !n.equals(".lock")).toList();
    }
  }

  @Test
  void aSpillFileIsImportedWholeOnceIntoAQueueItCreates() throws Exception {
    Path queue = tmp.resolve("queue");
    List<Event> written = events(5, 6);
    SpillFiles.write(queue, excerptsOf(written), 42);
    assertTrue(SpillFiles.pending(queue));
    EventQueues.checkIsQueue(queue); // a directory with only a spill file is a queue to read

    SpillImport.Imported first = SpillImport.importPending(queue);
    assertEquals(1, first.files());
    assertEquals(6, first.events());
    assertEquals(List.of(), first.problems());
    assertFalse(SpillFiles.pending(queue));
    assertEquals(List.of(), spillDirFiles(queue), "the spill file and its claim are gone");
    assertEquals(written, read(queue));

    assertEquals(SpillImport.Imported.NONE, SpillImport.importPending(queue));
    assertEquals(written, read(queue), "not again");
  }

  @Test
  void anImportThatStoppedHalfWayIsFinishedWithoutAppendingAnyExcerptTwice() throws Exception {
    Path queue = tmp.resolve("queue");
    List<Event> before = events(7, 1);
    List<Event> spilled = events(11, 6);
    List<byte[]> excerpts = excerptsOf(spilled);
    Path spill = SpillFiles.write(queue, excerpts, 43);
    long lastBefore;
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      a.writeBytes(Bytes.wrapForRead(bytesOf(before.get(0))));
      lastBefore = q.lastIndex();
      // the importer that stopped: its claim written, its first two excerpts appended
      Files.writeString(
          spill.resolveSibling(spill.getFileName() + ".claim"),
          Long.toString(lastBefore),
          StandardCharsets.US_ASCII);
      a.writeBytes(Bytes.wrapForRead(excerpts.get(0)));
      a.writeBytes(Bytes.wrapForRead(excerpts.get(1)));
    }

    SpillImport.Imported done = SpillImport.importPending(queue);
    assertEquals(6, done.events());
    List<Event> expected = new ArrayList<>(before);
    expected.addAll(spilled);
    assertEquals(expected, read(queue), "each excerpt once, in order");
    assertEquals(List.of(), spillDirFiles(queue));
  }

  @Test
  void aDamagedSpillFileIsSetAsideAndNamedWhileTheOthersAreImported() throws Exception {
    Path queue = tmp.resolve("queue");
    List<Event> good = events(13, 6);
    Path damaged = SpillFiles.write(queue, excerptsOf(events(17, 6)), 44);
    byte[] bytes = Files.readAllBytes(damaged);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(damaged, bytes);
    SpillFiles.write(queue, excerptsOf(good), 45);
    Files.writeString(queue.resolve(SpillFiles.DIR).resolve("46-1-1.spill.claim"), "7");

    SpillImport.Imported done = SpillImport.importPending(queue);
    assertEquals(1, done.files());
    assertEquals(1, done.problems().size());
    String problem = done.problems().get(0);
    assertTrue(problem.contains(damaged.toString()), problem);
    assertTrue(problem.contains("checksum"), problem);
    assertEquals(good, read(queue));
    assertEquals(
        List.of(damaged.getFileName() + ".damaged"),
        spillDirFiles(queue),
        "the damaged file kept aside, the claim without a spill file gone");
    assertFalse(SpillFiles.pending(queue));
  }

  @Test
  void everyImportLocksTheSameLockFileWhichIsNeverReplaced() throws Exception {
    Path queue = tmp.resolve("queue");
    SpillFiles.write(queue, excerptsOf(events(23, 6)), 49);
    SpillImport.importPending(queue);
    Path lock = queue.resolve(SpillFiles.DIR).resolve(".lock");
    Object first = Files.readAttributes(lock, BasicFileAttributes.class).fileKey();
    SpillFiles.write(queue, excerptsOf(events(29, 6)), 50);
    assertEquals(6, SpillImport.importPending(queue).events());
    assertEquals(first, Files.readAttributes(lock, BasicFileAttributes.class).fileKey());
    assertEquals(12, read(queue).size());
  }

  @Test
  void aFileCutShortOrNotASpillFileIsDamaged() throws Exception {
    Path queue = tmp.resolve("queue");
    Path spill = SpillFiles.write(queue, excerptsOf(events(19, 6)), 47);
    byte[] whole = Files.readAllBytes(spill);
    Files.write(spill, java.util.Arrays.copyOf(whole, whole.length - 20));
    Files.writeString(queue.resolve(SpillFiles.DIR).resolve("48-1-1.spill"), "hello");

    SpillImport.Imported done = SpillImport.importPending(queue);
    assertEquals(0, done.files());
    assertEquals(2, done.problems().size(), done.problems().toString());
    assertTrue(done.problems().get(1).contains("not a spill file"), done.problems().toString());
    assertEquals(List.of(), read(queue));
  }
}
