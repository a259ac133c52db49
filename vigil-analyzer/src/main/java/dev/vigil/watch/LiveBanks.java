package dev.vigil.watch;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The EmoBanks {@code watch} deposits into as events arrive: one for a single agent, one per agent
 * for a fleet ({@link FleetLayout}). Banks are opened on first use and stay open while passes run
 * beside the tail: a pass reads a bank as last committed ({@link EmoBank#openCommitted}) and the
 * tail stays its one writer. A commit records the queue position (the index of the last excerpt
 * read); {@code state.json} is the last pass's, and a fresh snapshot is written there when the
 * banks close (a snapshot reads every live row, and commits come every few milliseconds).
 */
final class LiveBanks implements AutoCloseable {
  private final String queueKey;
  private final Duration window;
  private final Decay decay;
  private final Map<String, EmoBank> open = new LinkedHashMap<>();
  private final Set<String> dirty = new LinkedHashSet<>();
  private FleetLayout layout;

  LiveBanks(FleetLayout layout, String queueKey, Duration window, Duration halfLife) {
    this.layout = layout;
    this.queueKey = queueKey;
    this.window = window;
    this.decay = new Decay(halfLife);
  }

  FleetLayout layout() {
    return layout;
  }

  /**
   * Where reading resumes: the committed position of the bank (a single agent), or the lowest of
   * the agents' banks (a fleet); -1 to read from the start. Events between a bank's own position
   * and that are recognized by identity.
   */
  long resumePosition() throws IOException {
    if (!layout.fleet()) {
      return EmoBank.committedQueuePosition(layout.emobank(), queueKey);
    }
    Path agents = layout.emobank().resolve(FleetLayout.AGENTS);
    long min = Long.MAX_VALUE;
    if (Files.isDirectory(agents)) {
      try (Stream<Path> dirs = Files.list(agents)) {
        for (Path d : (Iterable<Path>) dirs.filter(Files::isDirectory)::iterator) {
          min = Math.min(min, EmoBank.committedQueuePosition(d, queueKey));
        }
      }
    }
    return min == Long.MAX_VALUE ? -1 : min;
  }

  /** The bank of an agent (its display name), opened on first use. */
  EmoBank bank(String agent) throws IOException {
    String key = layout.fleet() ? agent : "";
    EmoBank bank = open.get(key);
    if (bank == null) {
      bank = EmoBank.open(layout.bank(agent));
      open.put(key, bank);
    }
    return bank;
  }

  /** Marks an agent's bank as holding uncommitted deposits. */
  void touched(String agent) {
    dirty.add(layout.fleet() ? agent : "");
  }

  boolean hasUncommitted() {
    return !dirty.isEmpty();
  }

  /** Commits the banks with uncommitted deposits, at queue position {@code position}. */
  void commit(long position) throws IOException {
    for (String key : dirty) {
      commit(open.get(key), position, null, null);
    }
    dirty.clear();
  }

  /**
   * Commits every open bank and compacts its rows older than {@code before} into episode totals
   * (before a pass, when no pass reads the banks).
   */
  void commitAndCompact(long position, Instant before) throws IOException {
    for (EmoBank bank : open.values()) {
      commit(bank, position, null, before);
    }
    dirty.clear();
  }

  /**
   * Commits every open bank at {@code position} with a fresh snapshot and closes them all (when
   * stopping).
   */
  void commitAndClose(long position, Instant now) throws IOException {
    for (EmoBank bank : open.values()) {
      commit(bank, position, snapshot(bank, now), null);
      bank.close();
    }
    open.clear();
    dirty.clear();
  }

  /** Commits and closes everything, and lays the banks out for a fleet from now on. */
  void switchToFleet(long position, Instant now) throws IOException {
    commitAndClose(position, now);
    layout = layout.asFleet();
    OwnerOnly.createDirectories(layout.emobank().resolve(FleetLayout.AGENTS));
  }

  private void commit(EmoBank bank, long position, ObjectNode state, Instant compactBefore)
      throws IOException {
    if (position >= 0) {
      bank.queuePositions().record(queueKey, position);
    }
    bank.commit(state, compactBefore);
  }

  /** The affective snapshot over the bank's live rows in the window before {@code now}. */
  private ObjectNode snapshot(EmoBank bank, Instant now) {
    List<EmotionRow> rows = new ArrayList<>();
    Instant from = now.minus(window);
    for (EmotionRow r : bank.liveRows()) {
      if (!r.ts().isBefore(from) && !r.ts().isAfter(now)) {
        rows.add(r);
      }
    }
    ObjectNode state = Snapshot.of(rows, decay, now).toJson();
    state.put("now", now.toString());
    return state;
  }

  @Override
  public void close() {
    open.values().forEach(EmoBank::close);
    open.clear();
  }
}
