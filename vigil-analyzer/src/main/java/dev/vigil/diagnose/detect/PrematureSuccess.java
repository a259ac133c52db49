package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code premature_success} (docs/DETECTORS.md; the paper's premature toasts): a success reported
 * before the confirmation it depends on, or with no confirmation at all.
 *
 * <p>A confirmation is an event whose kind's last segment has a word (split on {@code _}, {@code -}
 * and case) starting with a configured word, so {@code reminder.receipt} and {@code
 * order.confirmed} are confirmations and {@code tool.track_parcel} is not. Each confirmation
 * belongs to the nearest earlier success that shares an id value with it; when that success is a
 * call made inside a larger one on the same thread that shares the id too (the backend call inside
 * the tool call), the outermost such call is the one that answered, and it owns the confirmation. A
 * success kind depends on confirmation when at least one of its successes in the window got one;
 * every success of such a kind is then premature when it was reported ({@code ts + duration_ms})
 * before its confirmation, or when it has none. The lag is the confirmation's {@code ts} minus the
 * time the success was reported.
 *
 * <p>Streaming, in memory bounded by id and kind: a success waits for its confirmation, as a {@link
 * PendingSuccesses compact copy} indexed by its id values, until {@link #HORIZON} (1 h, event time)
 * after it was reported (a success without an id value does not wait: no confirmation can name it);
 * a confirmation that comes later finds no success to belong to, so "no confirmation at all" means
 * none within the hour. At most {@value #MAX_WAITING} successes wait at once; beyond, the oldest
 * stops waiting unjudged ({@code dropped_waiting} counts those). A success confirmed late is judged
 * at its confirmation; one whose wait ended is premature when its kind is known to depend on
 * confirmation, and put aside when that is not known yet (the newest {@value Findings#MAX_CITED}
 * per kind, at most {@value #MAX_KINDS} kinds) until a success of its kind gets a confirmation or
 * the window ends; {@code dropped_aside} counts those of a kind that turned out to depend on
 * confirmation that were not kept, and so not judged.
 *
 * <p>Derived event: {@code <kind>.premature}, status {@code fail}, at the time the success was
 * reported, payload {@code receipt_lag_sec} (absent when no confirmation came), {@code id} and the
 * refs of both events. Evidence: the counts, the mean lag, the kinds that depend on confirmation,
 * the newest {@value Findings#MAX_CITED} instances and {@code instances_total}.
 */
public final class PrematureSuccess implements Detector {
  /** The detector's name. */
  public static final String NAME = "premature_success";

  /** How long after it was reported a success waits for its confirmation (event time). */
  static final Duration HORIZON = Duration.ofHours(1);

  /** Successes waiting at once. */
  static final int MAX_WAITING = 20_000;

  /**
   * Kinds whose unconfirmed successes are put aside while it is not known whether they depend on
   * confirmation.
   */
  static final int MAX_KINDS = 1_000;

  /** Successes kept whole, so that the report shows the arguments and result of those cited. */
  static final int WHOLE = 256;

  private final List<String> words;

  /** A detector with these confirmation words. */
  public PrematureSuccess(DetectorSettings settings) {
    this.words = settings.confirmationWords();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Scan scan(Consumer<Derived> derived) {
    return start(derived);
  }

  /** {@link #scan}, with its state open to tests. */
  Reading start(Consumer<Derived> derived) {
    return new Reading(derived);
  }

  /** One window's reading. */
  final class Reading implements Scan {
    private final Findings found;
    private final PendingSuccesses pending = new PendingSuccesses(MAX_WAITING);
    private final RecentEvents whole = new RecentEvents(WHOLE);
    private final Set<String> dependentKinds = new TreeSet<>();

    /**
     * Unconfirmed successes whose wait ended before their kind was seen to depend on confirmation.
     */
    private final Map<String, Newest<PendingSuccesses.Success>> asideByKind = new HashMap<>();

    private final Map<String, Boolean> confirmationKinds = new HashMap<>();
    private double lagSum;
    private int lagged;
    private int unconfirmed;
    private long droppedWaiting;
    private long droppedAside;

    private Reading(Consumer<Derived> derived) {
      this.found = new Findings(NAME, derived);
    }

    @Override
    public void accept(WindowEvent w) {
      Event e = w.event();
      for (var s = pending.expired(e.ts(), HORIZON);
          s != null;
          s = pending.expired(e.ts(), HORIZON)) {
        settle(s);
      }
      if (confirmation(e.kind())) {
        PendingSuccesses.Owner owner = pending.owner(EventFields.ids(e));
        if (owner != null && !owner.success().confirmed) {
          owner.success().confirmed = true;
          confirmed(owner.success(), w, owner.id());
        }
      } else if (EventFields.SUCCESS.contains(EventFields.status(e))) {
        Set<String> ids = EventFields.ids(e);
        whole.keep(w);
        if (ids.isEmpty()) {
          settle(
              pending.unindexed(
                  EventFields.slim(w))); // no confirmation can name it: nothing to wait for
          return;
        }
        PendingSuccesses.Success out = pending.add(EventFields.slim(w), ids);
        if (out != null && !out.confirmed) {
          droppedWaiting++; // stopped waiting early: too many were waiting
        }
      }
    }

    @Override
    public Detection finish() {
      for (PendingSuccesses.Success s : pending.drain()) {
        if (!s.confirmed && dependentKinds.contains(s.kind())) {
          unconfirmed(s);
        }
      }
      asideByKind.clear();
      int count = found.count();
      ObjectNode evidence = JsonNodeFactory.instance.objectNode();
      evidence.put("confirmed_late", lagged).put("unconfirmed", unconfirmed);
      if (lagged > 0) {
        evidence.put("mean_receipt_lag_sec", lagSum / lagged);
      } else {
        evidence.putNull("mean_receipt_lag_sec");
      }
      ArrayNode kinds = evidence.putArray("success_kinds");
      dependentKinds.forEach(kinds::add);
      if (droppedWaiting > 0) {
        evidence.put("dropped_waiting", droppedWaiting);
      }
      if (droppedAside > 0) {
        evidence.put("dropped_aside", droppedAside);
      }
      evidence.putArray("instances");
      return found.detection(evidence, summary(count, lagged, lagSum, unconfirmed, dependentKinds));
    }

    /** Successes waiting for a confirmation, and those put aside. */
    int held() {
      return pending.size() + asideByKind.values().stream().mapToInt(n -> n.items().size()).sum();
    }

    private boolean confirmation(String kind) {
      Boolean known = confirmationKinds.get(kind);
      if (known == null) {
        known = isConfirmation(kind);
        if (confirmationKinds.size() < MAX_KINDS) {
          confirmationKinds.put(kind, known);
        }
      }
      return known;
    }

    /** A success's wait ended without a confirmation. */
    private void settle(PendingSuccesses.Success s) {
      if (s.confirmed) {
        return;
      }
      if (dependentKinds.contains(s.kind())) {
        unconfirmed(s);
        return;
      }
      Newest<PendingSuccesses.Success> aside = asideByKind.get(s.kind());
      if (aside == null) {
        if (asideByKind.size() >= MAX_KINDS) {
          droppedAside++;
          return;
        }
        aside = new Newest<>(Findings.MAX_CITED);
        asideByKind.put(s.kind(), aside);
      }
      aside.add(s);
    }

    private void confirmed(PendingSuccesses.Success s, WindowEvent confirmation, String id) {
      if (dependentKinds.add(s.kind())) {
        Newest<PendingSuccesses.Success> aside = asideByKind.remove(s.kind());
        if (aside != null) {
          aside
              .items()
              .forEach(
                  this::unconfirmed); // the kind depends on confirmation: they never got theirs
          droppedAside += aside.total() - aside.items().size();
        }
      }
      double lag = Duration.between(s.reportedAt, confirmation.event().ts()).toNanos() / 1e9;
      if (lag <= 0) {
        return; // reported after its confirmation: gated as it should be
      }
      lagSum += lag;
      lagged++;
      found
          .entry("instances")
          .put("success", s.event.ref())
          .put("confirmation", confirmation.ref())
          .put("id", id)
          .put("receipt_lag_sec", lag);
      ObjectNode payload =
          JsonNodeFactory.instance
              .objectNode()
              .put("receipt_lag_sec", lag)
              .put("id", id)
              .put("confirmation", confirmation.ref())
              .put("success", s.event.ref());
      derive(s, payload);
      found.cite(confirmation);
    }

    private void unconfirmed(PendingSuccesses.Success s) {
      unconfirmed++;
      ObjectNode instance =
          found.entry("instances").put("success", s.event.ref()).putNull("confirmation");
      ObjectNode payload = JsonNodeFactory.instance.objectNode();
      if (s.ids.length > 0) {
        instance.put("id", s.ids[0]);
        payload.put("id", s.ids[0]);
      }
      payload.put("success", s.event.ref());
      derive(s, payload);
    }

    private void derive(PendingSuccesses.Success s, ObjectNode payload) {
      Event e = s.event.event();
      found.derive(
          whole.whole(s.event),
          EventFields.derive(e, e.kind() + ".premature", "fail", s.reportedAt, payload));
    }
  }

  private static String summary(
      int count, int lagged, double lagSum, int unconfirmed, Set<String> kinds) {
    if (count == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(count)
        .append(count == 1 ? " success" : " successes")
        .append(" of ")
        .append(String.join(", ", kinds.stream().sorted().toList()))
        .append(" reported before confirmation");
    if (lagged > 0) {
      sb.append(
          String.format(
              Locale.ROOT, "; the confirmation came %.1f s later on average", lagSum / lagged));
    }
    if (unconfirmed > 0) {
      sb.append("; ").append(unconfirmed).append(" never confirmed in the window");
    }
    return sb.toString();
  }

  /** Whether a kind's last segment has a word starting with a confirmation word. */
  // trailing separators give no empty word, as they always did (an empty confirmation word would
  // match one)
  @SuppressWarnings("StringSplitter")
  boolean isConfirmation(String kind) {
    String last = kind.substring(kind.lastIndexOf('.') + 1);
    for (String word : last.split("[_\\-]+|(?<=[a-z0-9])(?=[A-Z])")) {
      String w = word.toLowerCase(Locale.ROOT);
      for (String c : words) {
        if (w.startsWith(c)) {
          return true;
        }
      }
    }
    return false;
  }
}
