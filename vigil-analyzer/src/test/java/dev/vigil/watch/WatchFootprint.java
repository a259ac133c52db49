package dev.vigil.watch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the soak's last {@code watch} holds at one moment: its heap after a full GC, its open file
 * descriptors, and the two parts of its heap that grow with the bank by design (docs/COMMANDS.md,
 * what stays in memory): the identity table and the live rows of the bank it keeps open for the
 * tail. The leak check compares what is left when those two are taken out.
 *
 * @param heapKib heap in use after a full GC
 * @param fds open file descriptors
 * @param identities identities committed in the bank (read after the GC: an upper bound)
 * @param liveRows live rows committed in the bank (rows less {@code amend} rows; read after the GC)
 */
record WatchFootprint(long heapKib, long fds, long identities, long liveRows) {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final byte[] AMEND = "\"amend\":true".getBytes(StandardCharsets.UTF_8);

  /** Bytes of a slot of the bank's live rows: a time, three doubles and four string indexes. */
  static final long ROW_SLOT_BYTES = 8 + 3 * 8 + 4 * 4;

  /**
   * Measures {@code watch} with process id {@code pid} and its bank; the class histogram the full
   * GC comes with is written to {@code histogram}.
   */
  static WatchFootprint measure(long pid, Path bank, Path histogram) throws Exception {
    long heap = SoakProcesses.heapAfterFullGcKib(pid, histogram);
    long fds = SoakProcesses.openFds(pid);
    JsonNode cp = MAPPER.readTree(bank.resolve(EmoBank.CHECKPOINT).toFile());
    long identities = cp.path("events_deposited").asLong();
    long rows = liveRows(bank.resolve(EmoBank.EMOTIONS), cp.path("emotions_bytes").asLong());
    return new WatchFootprint(heap, fds, identities, rows);
  }

  /** The heap less what grows with the bank by design, in KiB. */
  long baseKib() {
    return heapKib - (identityTableBytes(identities) + liveRowsBytes(liveRows)) / 1024;
  }

  /**
   * The bytes of the bank's identity table ({@code LongSet}) for {@code n} identities: 8 per slot,
   * the slots doubling from 1,024 so that at most half are used.
   */
  static long identityTableBytes(long n) {
    long slots = 1024;
    while (n * 2 > slots) {
      slots *= 2;
    }
    return slots * Long.BYTES;
  }

  /**
   * The bytes of the bank's live rows ({@code LiveRows}) for {@code n} rows: {@link
   * #ROW_SLOT_BYTES} per slot, the slots growing by half from 64.
   */
  static long liveRowsBytes(long n) {
    long slots = 64;
    while (n > slots) {
      slots += slots >> 1;
    }
    return slots * ROW_SLOT_BYTES;
  }

  /** Rows in the first {@code committed} bytes of {@code emotions.jsonl}, less amend rows. */
  static long liveRows(Path emotions, long committed) throws IOException {
    long lines = 0;
    long amends = 0;
    int matched = 0;
    byte[] buf = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(emotions)) {
      long left = committed;
      int n;
      while (left > 0 && (n = in.read(buf, 0, (int) Math.min(buf.length, left))) > 0) {
        left -= n;
        for (int i = 0; i < n; i++) {
          byte b = buf[i];
          if (b == '\n') {
            lines++;
          }
          matched = b == AMEND[matched] ? matched + 1 : (b == AMEND[0] ? 1 : 0);
          if (matched == AMEND.length) {
            amends++;
            matched = 0;
          }
        }
      }
    }
    return lines - amends;
  }
}
