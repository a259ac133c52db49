package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.appraise.Appraisal;
import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.RbtDiagnosis;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.IngestSink;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.ingest.QueueSource;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One reflective pass (the paper's section 2.2): ingest the window, appraise each event, deposit into the EmoBank
 * exactly once, take the snapshot and diagnose Roses/Buds/Thorns, then commit the bank.
 *
 * <p>Memory stays proportional to the events in the window, not to their payloads: each event is appraised as it
 * is read and only its timestamp, identity and appraisal are kept until the newest {@code limit} are chosen.
 */
public final class ReflectivePass {
  /** The stage a pass reaches when the bank is updated. */
  public static final String EB_UPDATED = "eb_updated";
  /** The stage a pass reaches when it has diagnosed. */
  public static final String DIAGNOSED = "diagnosed";

  private record Candidate(Instant ts, long order, long identity, Appraisal appraisal) {}

  private static final Comparator<Candidate> EVENT_TIME =
      Comparator.comparing(Candidate::ts).thenComparingLong(Candidate::order);

  private final InputStream stdin;

  /** @param stdin what {@code --events -} reads */
  public ReflectivePass(InputStream stdin) {
    this.stdin = stdin;
  }

  /**
   * Runs the pass.
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   * @throws dev.vigil.emobank.BankCorruptException naming the file and line of a corrupt bank
   */
  public PassResult run(PassOptions o) throws IOException {
    Appraiser appraiser = o.rules().appraisal().newAppraiser();
    List<Candidate> candidates = new ArrayList<>();
    long[] order = {0};
    JsonlSource jsonl = o.events() != null ? new JsonlSource(o.events(), o.assumeZone(), stdin) : null;
    QueueSource queue = o.queue() != null ? new QueueSource(o.queue()) : null;
    if (jsonl != null) {
      jsonl.check();
    }
    try (EmoBank bank = EmoBank.open(o.emobank())) {
      IngestSink sink = (event, identity, position) -> {
        long n = order[0]++;
        if (o.inWindow(event.ts())) {
          candidates.add(new Candidate(event.ts(), n, identity, appraiser.appraise(event)));
        }
      };
      IngestStats stats = jsonl != null
          ? jsonl.read(sink)
          : queue.read(bank.queuePosition(queue.key()), o.now(), sink);

      candidates.sort(EVENT_TIME);
      List<Candidate> used = candidates.size() > o.limit()
          ? candidates.subList(candidates.size() - o.limit(), candidates.size())
          : candidates;
      long deposited = 0;
      long already = 0;
      for (Candidate c : used) {
        if (bank.isDeposited(c.identity())) {
          already++;
          continue;
        }
        Appraisal a = c.appraisal();
        bank.deposit(c.identity(), EmotionRow.of(c.ts(), a.emotion(), a.intensity(), a.valence(), a.cause()));
        deposited++;
      }
      if (queue != null) {
        bank.queuePosition(queue.key(), queue.lastIndex());
      }

      Decay decay = new Decay(o.halfLife());
      List<EmotionRow> windowRows = new ArrayList<>();
      for (EmotionRow row : bank.liveRows()) {
        if (o.inWindow(row.ts())) {
          windowRows.add(row);
        }
      }
      Snapshot snapshot = Snapshot.of(windowRows, decay, o.now());
      Diagnosis diagnosis = new RbtDiagnosis(o.rules().rbt(), decay).diagnose(windowRows, o.now());
      ObjectNode state = snapshot.toJson();
      state.put("now", o.now().toString());
      bank.commit(state, o.now().minus(o.retention()));
      return new PassResult(o, DIAGNOSED, stats.eventsRead(), candidates.size(), used.size(), deposited, already,
          bank.rowsAppended(), stats.naiveTimestamps(), stats.skipped(), appraiser.badDelayValues(), snapshot,
          diagnosis);
    }
  }
}
