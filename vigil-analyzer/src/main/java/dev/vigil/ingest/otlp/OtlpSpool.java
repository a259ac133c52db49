package dev.vigil.ingest.otlp;

import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.EventQueues;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.ReentrantLock;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Where {@code watch --otlp-port} keeps each trace export request it accepted, before it answers
 * (docs/OPENTELEMETRY.md#the-receiver): a Chronicle queue of the requests as protobuf bytes, one
 * excerpt each, in a directory of its own. What was answered 200 is on disk, whatever happens to
 * {@code watch} after; the {@link SpoolMapper} turns it into events.
 */
public final class OtlpSpool implements AutoCloseable {
  private final ChronicleQueue queue;
  private final ExcerptAppender appender;
  private final ReentrantLock lock = new ReentrantLock();

  private OtlpSpool(ChronicleQueue queue, ExcerptAppender appender) {
    this.queue = queue;
    this.appender = appender;
  }

  /** Opens the spool in {@code dir}, creating it owner-only when missing. */
  public static OtlpSpool open(Path dir) throws IOException {
    OwnerOnly.createDirectories(dir);
    ChronicleQueue q = EventQueues.openForWriting(dir, System::currentTimeMillis);
    ExcerptAppender a = q.createAppender();
    a.singleThreadedCheckDisabled(true); // the receiver's threads, one at a time under the lock
    return new OtlpSpool(q, a);
  }

  /**
   * Appends one request's protobuf bytes.
   *
   * @return its index
   */
  public long append(byte[] request) {
    lock.lock();
    try {
      try (DocumentContext dc = appender.writingDocument()) {
        dc.wire().bytes().write(request);
      }
      return appender.lastIndexAppended();
    } finally {
      lock.unlock();
    }
  }

  /** A tailer of its own, for one reader thread. */
  ExcerptTailer tailer() {
    return queue.createTailer();
  }

  @Override
  public void close() {
    lock.lock();
    try {
      appender.close();
      queue.close();
    } finally {
      lock.unlock();
    }
  }
}
