package dev.vigil.emobank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The EmoBank directory (SPEC section 4.3): {@code emotions.jsonl} (append-only rows), {@code state.json} (the last
 * snapshot) and {@code checkpoint.json} with {@code seen-N.bin}, which make deposits exactly-once.
 *
 * <p>Crash safety. A pass appends rows as it goes and then commits: it syncs {@code emotions.jsonl}, records the
 * identities of the deposited events in {@code seen-N.bin}, and renames a new {@code checkpoint.json} into place;
 * that rename is the commit point. The checkpoint records how many bytes of {@code emotions.jsonl} and how many
 * identities of {@code seen-N.bin} are committed. The first commit of an opened bank writes every identity to a new
 * {@code seen-N.bin}; later commits of the same open bank ({@code watch} commits every few events) append only the
 * identities deposited since, so a commit costs the same however large the bank is. When a pass dies before its
 * commit (a {@code kill -9}), the next {@link #open} finds bytes past the committed length: it copies them to
 * {@code recovered-N.jsonl} (nothing stored is lost) and cuts them off, so the rerun deposits the same events again
 * and the bank ends as if the first pass had never started; identities past the committed count are ignored.
 *
 * <p>Corruption. A committed row that cannot be read, a file the bank did not write, or an {@code emotions.jsonl}
 * shorter than the checkpoint says stops {@link #open} with a {@link BankCorruptException} naming the file and line;
 * nothing in the directory is written in that case.
 *
 * <p>Amend rows. A row marked {@code amend} replaces the live row before it, for every reader of {@link #liveRows()}.
 *
 * <p>Committed view. {@link #openCommitted} reads the bank as its last commit left it while another process (the
 * tail of {@code watch}) keeps depositing and committing: it never writes a row, an identity or a checkpoint.
 * Deposits into the view stay in memory, where the pass's snapshot counts them (the writer makes the deposits
 * itself); only {@code state.json} is written.
 */
public final class EmoBank implements AutoCloseable {
  /** The rows file. */
  public static final String EMOTIONS = "emotions.jsonl";
  /** The last snapshot. */
  public static final String STATE = "state.json";
  /** The commit record. */
  public static final String CHECKPOINT = "checkpoint.json";
  /** Per-episode totals of compacted rows ({@link Retention}). */
  public static final String EPISODES = "episodes.json";
  private static final String COMPACTED_ROWS = EMOTIONS + ".compact.tmp";
  private static final String COMPACTED_EPISODES = EPISODES + ".tmp";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path dir;
  private final Path emotions;
  private final List<EmotionRow> live = new ArrayList<>();
  private final LongSet seen;
  private final Map<String, Long> queuePositions = new TreeMap<>();
  private ObjectNode episodes = Retention.emptyEpisodes();
  private long generation;
  /** The identity file named by the last commit; {@link #seenAppendable} when this bank wrote it whole. */
  private String seenFile;
  private boolean seenAppendable;
  /** Identities deposited since the last commit, in the order deposited. */
  private long[] fresh = new long[64];
  private int freshCount;
  private long rowsAppended;
  private boolean committedView;
  private Writer writer;
  private FileOutputStream writerStream;

  private EmoBank(Path dir, LongSet seen) {
    this.dir = dir;
    this.emotions = dir.resolve(EMOTIONS);
    this.seen = seen;
  }

  /**
   * Opens (creating when missing) the bank in {@code dir}, validates it, and recovers a crashed pass's
   * uncommitted rows.
   *
   * @throws BankCorruptException naming the file and line; the directory is left untouched
   */
  public static EmoBank open(Path dir) throws IOException {
    Files.createDirectories(dir);
    checkFiles(dir);
    Path checkpointFile = dir.resolve(CHECKPOINT);
    Path emotions = dir.resolve(EMOTIONS);
    long fileBytes = Files.exists(emotions) ? Files.size(emotions) : 0;
    long committed = fileBytes;
    long generation = 0;
    String seenName = null;
    long seenCount = -1;
    Map<String, Long> queues = new TreeMap<>();
    if (Files.exists(checkpointFile)) {
      JsonNode cp = readCheckpoint(checkpointFile);
      committed = committedBytes(cp, checkpointFile);
      generation = cp.path("generation").asLong(0);
      seenName = cp.path("seen").asText(null);
      seenCount = cp.path("events_deposited").asLong(-1);
      cp.path("queues").fields().forEachRemaining(e -> queues.put(e.getKey(), e.getValue().asLong()));
      if (cp.has("compaction_bytes")) {
        // a compaction was committed but its files were not all moved into place: finish it
        finishCompaction(dir);
        committed = cp.get("compaction_bytes").asLong();
        fileBytes = Files.size(emotions);
      }
      checkLength(emotions, fileBytes, committed);
    }
    LongSet seen = readSeen(dir, seenName, seenCount);
    EmoBank bank = new EmoBank(dir, seen);
    bank.generation = generation;
    bank.seenFile = seenName;
    bank.readEpisodes();
    bank.queuePositions.putAll(queues);
    bank.readRows(committed);
    if (fileBytes > committed) {
      bank.recoverTail(fileBytes, committed);
    }
    if (!Files.exists(checkpointFile)) {
      // a new bank (or rows written by hand): commit what is there before the first deposit, so that rows a
      // crashed first pass appends are recognized as uncommitted
      bank.writeCheckpoint(committed, null);
    }
    return bank;
  }

  /**
   * A deposit a committed view's reader leaves to the bank's writer: the event's identity, its row, and whether a
   * detector derived it (rather than it being an event of the input).
   */
  public record PendingDeposit(long identity, EmotionRow row, boolean derived) {}

  /**
   * Opens a read-only view of the bank in {@code dir} as its last commit left it (empty when there is none yet):
   * the committed rows and identities; rows appended after the commit are not read, nothing is recovered or written
   * (see the class comment).
   *
   * @throws BankCorruptException naming the file and line
   */
  public static EmoBank openCommitted(Path dir) throws IOException {
    Path checkpointFile = dir.resolve(CHECKPOINT);
    if (!Files.exists(checkpointFile)) {
      EmoBank empty = new EmoBank(dir, new LongSet());
      empty.committedView = true;
      return empty;
    }
    checkFiles(dir);
    JsonNode cp = readCheckpoint(checkpointFile);
    if (cp.has("compaction_bytes")) {
      throw new IOException("the EmoBank " + dir + " is in the middle of a compaction; its writer finishes it when "
          + "it next opens the bank");
    }
    long committed = committedBytes(cp, checkpointFile);
    Path emotions = dir.resolve(EMOTIONS);
    checkLength(emotions, Files.exists(emotions) ? Files.size(emotions) : 0, committed);
    EmoBank bank = new EmoBank(dir, readSeen(dir, cp.path("seen").asText(null), cp.path("events_deposited")
        .asLong(-1)));
    bank.committedView = true;
    bank.generation = cp.path("generation").asLong(0);
    bank.readEpisodes();
    cp.path("queues").fields().forEachRemaining(e -> bank.queuePositions.put(e.getKey(), e.getValue().asLong()));
    bank.readRows(committed);
    return bank;
  }

  private static JsonNode readCheckpoint(Path checkpointFile) throws BankCorruptException {
    try {
      return MAPPER.readTree(checkpointFile.toFile());
    } catch (IOException e) {
      throw new BankCorruptException(checkpointFile, 0, "is not readable JSON; restore it from a backup or remove "
          + "the bank directory to start afresh");
    }
  }

  private static long committedBytes(JsonNode cp, Path checkpointFile) throws BankCorruptException {
    long committed = cp.path("emotions_bytes").asLong(-1);
    if (committed < 0) {
      throw new BankCorruptException(checkpointFile, 0, "has no emotions_bytes, or a negative one");
    }
    return committed;
  }

  private static void checkLength(Path emotions, long fileBytes, long committed) throws BankCorruptException {
    if (fileBytes < committed) {
      throw new BankCorruptException(emotions, 0, "has " + fileBytes + " bytes but " + committed
          + " were committed; it was cut short outside Vigil. Restore it from a backup");
    }
  }

  private void readEpisodes() throws BankCorruptException {
    Path episodesFile = dir.resolve(EPISODES);
    if (Files.exists(episodesFile)) {
      try {
        episodes = (ObjectNode) MAPPER.readTree(episodesFile.toFile());
      } catch (IOException | ClassCastException e) {
        throw new BankCorruptException(episodesFile, 0, "is not a JSON object of episode totals; restore it from a "
            + "backup");
      }
    }
  }

  /** Whether this is a committed view ({@link #openCommitted}). */
  public boolean isCommittedView() {
    return committedView;
  }

  private static void checkFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        boolean ours = name.equals(EMOTIONS) || name.equals(STATE) || name.equals(CHECKPOINT)
            || name.equals(EPISODES)
            || name.matches("seen-\\d+\\.bin") || name.matches("recovered-\\d+\\.jsonl")
            || name.endsWith(".tmp");
        if (!ours) {
          throw new BankCorruptException(f, 0, "is not an EmoBank file; move it out of the bank directory");
        }
      }
    }
  }

  /**
   * The committed identities: the first {@code count} of the file (all of it when the checkpoint gives no count).
   * Identities past them were appended by a commit that did not happen; they are not deposited.
   */
  private static LongSet readSeen(Path dir, String name, long count) throws IOException {
    LongSet set = new LongSet();
    if (name == null) {
      return set;
    }
    Path file = dir.resolve(name);
    if (!Files.exists(file)) {
      throw new BankCorruptException(file, 0, "is named by " + CHECKPOINT + " but missing");
    }
    long size = Files.size(file);
    if (count < 0 && size % Long.BYTES != 0) {
      throw new BankCorruptException(file, 0, "has " + size + " bytes, not a whole number of identities");
    }
    long committed = count < 0 ? size / Long.BYTES : count;
    if (size < committed * Long.BYTES) {
      throw new BankCorruptException(file, 0, "has " + size / Long.BYTES + " identities but " + CHECKPOINT + " counts "
          + committed + "; it was cut short outside Vigil. Restore it from a backup");
    }
    try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
      for (long i = 0; i < committed; i++) {
        set.add(in.readLong());
      }
    }
    return set;
  }

  private void readRows(long committed) throws IOException {
    if (committed == 0) {
      return;
    }
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(
        new Bounded(Files.newInputStream(emotions), committed), StandardCharsets.UTF_8), 1 << 16)) {
      long lineNo = 0;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        EmotionRow row;
        try {
          row = RowCodec.read(line);
        } catch (IllegalArgumentException e) {
          throw new BankCorruptException(emotions, lineNo, e.getMessage() + "; remove or fix the row");
        }
        accept(row);
      }
    }
  }

  private void accept(EmotionRow row) {
    if (row.amend() && !live.isEmpty()) {
      live.set(live.size() - 1, row.live());
    } else {
      live.add(row.live());
    }
  }

  private void recoverTail(long fileBytes, long committed) throws IOException {
    Path recovered = dir.resolve("recovered-" + (generation + 1) + ".jsonl");
    try (InputStream in = Files.newInputStream(emotions)) {
      in.skipNBytes(committed);
      try (var out = Files.newOutputStream(recovered, java.nio.file.StandardOpenOption.CREATE,
          java.nio.file.StandardOpenOption.APPEND)) {
        in.transferTo(out);
      }
    }
    try (var channel = java.nio.channels.FileChannel.open(emotions, java.nio.file.StandardOpenOption.WRITE)) {
      channel.truncate(committed);
      channel.force(true);
    }
  }

  /** The live rows, oldest first: amended rows appear as their replacement. */
  public List<EmotionRow> liveRows() {
    return Collections.unmodifiableList(live);
  }

  /** The last live row, or null. */
  public EmotionRow lastRow() {
    return live.isEmpty() ? null : live.get(live.size() - 1);
  }

  /** Whether the event with this identity was deposited already (in a committed pass or this one). */
  public boolean isDeposited(long identity) {
    return seen.contains(identity);
  }

  /** The number of distinct events deposited. */
  public int depositedEvents() {
    return seen.size();
  }

  /**
   * Deposits one appraised event under the {@link DepositPolicy}, unless its identity was deposited already.
   *
   * @return the rows appended (empty when dropped or already deposited)
   */
  public List<EmotionRow> deposit(long identity, EmotionRow row) throws IOException {
    if (!seen.add(identity)) {
      return List.of();
    }
    if (freshCount == fresh.length) {
      fresh = java.util.Arrays.copyOf(fresh, freshCount * 2);
    }
    fresh[freshCount++] = identity;
    List<EmotionRow> rows = DepositPolicy.deposit(lastRow(), row);
    if (committedView) {
      rows.forEach(this::accept);
      return rows;
    }
    for (EmotionRow r : rows) {
      RowCodec.write(r, writer());
      accept(r);
      rowsAppended++;
    }
    return rows;
  }

  /** Rows appended since this bank was opened. */
  public long rowsAppended() {
    return rowsAppended;
  }

  /** Where a queue's reading stopped at the last commit (the next index to read), or -1. */
  public long queuePosition(String queueKey) {
    return queuePositions.getOrDefault(queueKey, -1L);
  }

  /**
   * Where a queue's reading stopped at the last commit of the bank in {@code dir}, read from its checkpoint without
   * opening the bank; -1 when the bank or the queue's entry does not exist.
   *
   * @throws BankCorruptException when the checkpoint is not readable JSON
   */
  public static long committedQueuePosition(Path dir, String queueKey) throws IOException {
    Path checkpointFile = dir.resolve(CHECKPOINT);
    if (!Files.exists(checkpointFile)) {
      return -1;
    }
    try {
      return MAPPER.readTree(checkpointFile.toFile()).path("queues").path(queueKey).asLong(-1);
    } catch (IOException e) {
      throw new BankCorruptException(checkpointFile, 0, "is not readable JSON; restore it from a backup or remove "
          + "the bank directory to start afresh");
    }
  }

  /** Records where a queue's reading stopped; committed with the rows by {@link #commit}. */
  public void queuePosition(String queueKey, long nextIndex) {
    queuePositions.put(queueKey, nextIndex);
  }

  private Writer writer() throws IOException {
    if (writer == null) {
      writerStream = new FileOutputStream(emotions.toFile(), true);
      writer = new BufferedWriter(new OutputStreamWriter(writerStream, StandardCharsets.UTF_8), 1 << 16);
    }
    return writer;
  }

  /**
   * Makes this pass's deposits durable and exactly-once, then writes {@code state.json}.
   *
   * @param state the snapshot to keep as the bank's last state; null keeps the last one
   */
  public void commit(JsonNode state) throws IOException {
    commit(state, null);
  }

  /**
   * Commits like {@link #commit(JsonNode)} and compacts the live rows older than {@code compactBefore} into
   * {@code episodes.json} ({@link Retention}); null compacts nothing. Compaction is the one time
   * {@code emotions.jsonl} is rewritten: the remaining live rows go to a new file that replaces it once the
   * checkpoint that names its length is in place, so a crash at any point leaves either the old bank or the new.
   */
  public void commit(JsonNode state, Instant compactBefore) throws IOException {
    if (committedView) {
      if (state != null) {
        writeState(state);
      }
      return;
    }
    if (writer != null) {
      writer.flush();
      writerStream.getChannel().force(true);
    }
    Retention.Result compaction = compactBefore == null ? null : Retention.compact(live, compactBefore, episodes);
    Long compactedBytes = null;
    if (compaction != null && compaction.compacted() > 0) {
      close();
      Path rows = dir.resolve(COMPACTED_ROWS);
      try (FileOutputStream fos = new FileOutputStream(rows.toFile());
          Writer w = new BufferedWriter(new OutputStreamWriter(fos, StandardCharsets.UTF_8), 1 << 16)) {
        for (EmotionRow r : compaction.kept()) {
          RowCodec.write(r, w);
        }
        w.flush();
        fos.getChannel().force(true);
      }
      compactedBytes = Files.size(rows);
      MAPPER.writerWithDefaultPrettyPrinter().writeValue(dir.resolve(COMPACTED_EPISODES).toFile(),
          compaction.episodes());
    }
    long bytes = Files.exists(emotions) ? Files.size(emotions) : 0;
    long next = generation + 1;
    String previousSeen = seenFile;
    String seenName = commitSeen(next);
    generation = next;
    writeCheckpoint(bytes, seenName, compactedBytes);
    if (previousSeen != null && !previousSeen.equals(seenName)) {
      Files.deleteIfExists(dir.resolve(previousSeen));
    }
    if (compactedBytes != null) {
      finishCompaction(dir);
      writeCheckpoint(compactedBytes, seenName, null);
      live.clear();
      live.addAll(compaction.kept());
      episodes = compaction.episodes();
    }
    if (state != null) {
      writeAtomically(dir.resolve(STATE), state);
    }
  }

  /**
   * Records the deposited identities for the commit of generation {@code next}: appends the fresh ones to the file
   * this bank wrote, or writes them all to a new {@code seen-<next>.bin}; returns the file's name.
   */
  private String commitSeen(long next) throws IOException {
    if (seenAppendable) {
      if (freshCount > 0) {
        try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
            new FileOutputStream(dir.resolve(seenFile).toFile(), true), 1 << 16))) {
          for (int i = 0; i < freshCount; i++) {
            out.writeLong(fresh[i]);
          }
        } catch (IOException e) {
          seenAppendable = false; // part of them may be in the file: the next commit writes a new one
          throw e;
        }
      }
    } else {
      String name = "seen-" + next + ".bin";
      Path tmp = dir.resolve(name + ".tmp");
      try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
          Files.newOutputStream(tmp), 1 << 16))) {
        for (long id : seen.toArray()) {
          out.writeLong(id);
        }
      }
      Files.move(tmp, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      seenFile = name;
      seenAppendable = true;
    }
    freshCount = 0;
    return seenFile;
  }

  private static void finishCompaction(Path dir) throws IOException {
    Path episodesTmp = dir.resolve(COMPACTED_EPISODES);
    if (Files.exists(episodesTmp)) {
      Files.move(episodesTmp, dir.resolve(EPISODES), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
    Path rowsTmp = dir.resolve(COMPACTED_ROWS);
    if (Files.exists(rowsTmp)) {
      Files.move(rowsTmp, dir.resolve(EMOTIONS), StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }
  }

  /** The per-episode totals of compacted rows. */
  public ObjectNode episodes() {
    return episodes.deepCopy();
  }

  private void writeCheckpoint(long emotionsBytes, String seenName) throws IOException {
    writeCheckpoint(emotionsBytes, seenName, null);
  }

  /** Renames a new {@code checkpoint.json} into place: the commit point. */
  private void writeCheckpoint(long emotionsBytes, String seenName, Long compactionBytes) throws IOException {
    ObjectNode cp = MAPPER.createObjectNode();
    cp.put("version", 1);
    cp.put("generation", generation);
    cp.put("emotions_bytes", emotionsBytes);
    if (seenName != null) {
      cp.put("seen", seenName);
    }
    if (compactionBytes != null) {
      cp.put("compaction_bytes", compactionBytes);
    }
    cp.put("events_deposited", seen.size());
    ObjectNode queues = cp.putObject("queues");
    queuePositions.forEach(queues::put);
    writeAtomically(dir.resolve(CHECKPOINT), cp);
  }

  /**
   * Replaces {@code state.json} after a commit, for what a pass learns later (its diagnosis): a provisional diagnosis
   * of a later pass reads it when that pass cannot read the bank.
   */
  public void writeState(JsonNode state) throws IOException {
    Files.createDirectories(dir);
    writeAtomically(dir.resolve(STATE), state);
  }

  private void writeAtomically(Path target, JsonNode content) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    MAPPER.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), content);
    Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** The bank's directory. */
  public Path dir() {
    return dir;
  }

  @Override
  public void close() {
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      writer = null;
    }
  }

  /** An input stream that ends after {@code limit} bytes. */
  private static final class Bounded extends FilterInputStream {
    private long remaining;

    Bounded(InputStream in, long limit) {
      super(in);
      this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }
  }
}
