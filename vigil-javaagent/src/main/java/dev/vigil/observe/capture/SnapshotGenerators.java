package dev.vigil.observe.capture;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The generators that write {@link Snapshot}s' bytes, kept from one capture to the next rather than
 * made and closed for each (that took a third of a small object's capture). A few are pooled
 * without a lock, for any thread, platform or virtual: a thread takes one from its slot or the next
 * few, or makes one, and puts it back into the first free of them when its value is written. A
 * generator whose value failed is dropped, its state unknown, as is one whose buffer grew past
 * {@link #KEPT_BYTES}. The bytes are those of {@link ObjectMapper#writeValueAsBytes}.
 */
final class SnapshotGenerators {
  private static final int SLOTS = 32;

  /**
   * Slots a thread looks at, from its own on, to take a generator and to put it back: threads whose
   * slots collide still find one.
   */
  private static final int PROBES = 4;

  /** A generator whose buffer grew past this is not kept: a huge value does not stay in memory. */
  static final int KEPT_BYTES = 64 * 1024;

  private final ObjectMapper mapper;
  private final AtomicReferenceArray<Reusable> pool = new AtomicReferenceArray<>(SLOTS);

  SnapshotGenerators(ObjectMapper mapper) {
    this.mapper = mapper;
  }

  /** The Smile bytes of {@code value}; what serializing it throws is thrown. */
  byte[] write(Object value) throws IOException {
    int slot = System.identityHashCode(Thread.currentThread());
    Reusable r = null;
    for (int i = 0; i < PROBES && r == null; i++) {
      r = pool.getAndSet((slot + i) & (SLOTS - 1), null);
    }
    if (r == null) {
      r = new Reusable(mapper);
    }
    byte[] bytes = r.write(mapper, value);
    if (r.buf.length <= KEPT_BYTES) {
      for (int i = 0; i < PROBES; i++) {
        if (pool.compareAndSet((slot + i) & (SLOTS - 1), null, r)) {
          break;
        }
      }
    }
    return bytes;
  }

  /** A generator and the buffer it writes into. */
  private static final class Reusable extends OutputStream {
    private byte[] buf = new byte[256];
    private int count;
    private final JsonGenerator generator;

    Reusable(ObjectMapper mapper) throws IOException {
      generator = mapper.createGenerator(this);
    }

    byte[] write(ObjectMapper mapper, Object value) throws IOException {
      count = 0;
      mapper.writeValue(generator, value);
      generator.flush();
      return Arrays.copyOf(buf, count);
    }

    @Override
    public void write(int b) {
      room(1);
      buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      room(len);
      System.arraycopy(b, off, buf, count, len);
      count += len;
    }

    private void room(int more) {
      if (count + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, count + more));
      }
    }
  }
}
