package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code premature_success} (SPEC section 4.4; the paper's premature toasts): a success reported before the
 * confirmation it depends on, or with no confirmation at all.
 *
 * <p>A confirmation is an event whose kind's last segment has a word (split on {@code _}, {@code -} and case)
 * starting with a configured word, so {@code reminder.receipt} and {@code order.confirmed} are confirmations and
 * {@code tool.track_parcel} is not. Each confirmation belongs to the nearest earlier success that shares an id
 * value with it; when that success is a call made inside a larger one on the same thread that shares the id too
 * (the backend call inside the tool call), the outermost such call is the one that answered, and it owns the
 * confirmation. A success kind depends on confirmation when at least one of its successes in the window got one;
 * every success of such a kind is then premature when it was reported ({@code ts + duration_ms}) before its
 * confirmation, or when it has none. The lag is the confirmation's {@code ts} minus the time the success was
 * reported.
 *
 * <p>Derived event: {@code <kind>.premature}, status {@code fail}, at the time the success was reported, payload
 * {@code receipt_lag_sec} (absent when no confirmation came), {@code id} and the refs of both events.
 */
public final class PrematureSuccess extends WholeWindowDetector {
  /** The detector's name. */
  public static final String NAME = "premature_success";

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
  public Detection detect(List<WindowEvent> window) {
    List<WindowEvent> successes = new ArrayList<>();
    List<Set<String>> successIds = new ArrayList<>();
    Map<Integer, WindowEvent> confirmationOf = new HashMap<>();
    Map<Integer, String> idOf = new HashMap<>();
    for (WindowEvent w : window) {
      Event e = w.event();
      if (isConfirmation(e.kind())) {
        Set<String> ids = EventFields.ids(e);
        int owner = -1;
        String shared = null;
        for (int i = successes.size() - 1; i >= 0; i--) {
          String s = firstShared(ids, successIds.get(i));
          if (s == null) {
            continue;
          }
          if (owner < 0) {
            owner = i;
            shared = s;
          } else if (encloses(successes.get(i).event(), successes.get(owner).event())) {
            owner = i; // a call made inside a larger one (the backend call inside the tool): the larger one answers
            shared = s;
          } else {
            break;
          }
        }
        if (owner >= 0 && !confirmationOf.containsKey(owner)) {
          confirmationOf.put(owner, w);
          idOf.put(owner, shared);
        }
      } else if (EventFields.SUCCESS.contains(EventFields.status(e))) {
        successes.add(w);
        successIds.add(EventFields.ids(e));
      }
    }
    Set<String> dependentKinds = new HashSet<>();
    confirmationOf.keySet().forEach(i -> dependentKinds.add(successes.get(i).event().kind()));

    ObjectNode evidence = JsonNodeFactory.instance.objectNode();
    ArrayNode instances = JsonNodeFactory.instance.arrayNode();
    List<Derived> derived = new ArrayList<>();
    double lagSum = 0;
    int lagged = 0;
    int unconfirmed = 0;
    for (int i = 0; i < successes.size(); i++) {
      Event s = successes.get(i).event();
      if (!dependentKinds.contains(s.kind())) {
        continue;
      }
      WindowEvent c = confirmationOf.get(i);
      double lag = c == null ? Double.NaN
          : Duration.between(EventFields.reportedAt(s), c.event().ts()).toNanos() / 1e9;
      if (lag <= 0) {
        continue; // reported after its confirmation: gated as it should be
      }
      ObjectNode payload = JsonNodeFactory.instance.objectNode();
      ObjectNode instance = instances.addObject().put("success", successes.get(i).ref());
      if (c != null) {
        lagSum += lag;
        lagged++;
        instance.put("confirmation", c.ref()).put("id", idOf.get(i)).put("receipt_lag_sec", lag);
        payload.put("receipt_lag_sec", lag).put("id", idOf.get(i)).put("confirmation", c.ref());
      } else {
        unconfirmed++;
        instance.putNull("confirmation");
        Set<String> ids = successIds.get(i);
        if (!ids.isEmpty()) {
          instance.put("id", ids.iterator().next());
          payload.put("id", ids.iterator().next());
        }
      }
      payload.put("success", successes.get(i).ref());
      derived.add(new Derived(EventFields.derive(s, s.kind() + ".premature", "fail", EventFields.reportedAt(s),
          payload), successes.get(i).identity()));
    }
    int count = derived.size();
    evidence.put("confirmed_late", lagged).put("unconfirmed", unconfirmed);
    if (lagged > 0) {
      evidence.put("mean_receipt_lag_sec", lagSum / lagged);
    } else {
      evidence.putNull("mean_receipt_lag_sec");
    }
    ArrayNode kinds = evidence.putArray("success_kinds");
    dependentKinds.stream().sorted().forEach(kinds::add);
    evidence.set("instances", instances);
    return new Detection(NAME, count, evidence, summary(count, lagged, lagSum, unconfirmed, dependentKinds),
        derived);
  }

  private static String summary(int count, int lagged, double lagSum, int unconfirmed, Set<String> kinds) {
    if (count == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(count).append(count == 1 ? " success" : " successes").append(" of ")
        .append(String.join(", ", kinds.stream().sorted().toList())).append(" reported before confirmation");
    if (lagged > 0) {
      sb.append(String.format(Locale.ROOT, "; the confirmation came %.1f s later on average", lagSum / lagged));
    }
    if (unconfirmed > 0) {
      sb.append("; ").append(unconfirmed).append(" never confirmed in the window");
    }
    return sb.toString();
  }

  /** Whether a kind's last segment has a word starting with a confirmation word. */
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

  /** Whether {@code outer} ran on the same thread from before {@code inner} started until after it answered. */
  private static boolean encloses(Event outer, Event inner) {
    return outer.thread() != null && outer.thread().equals(inner.thread())
        && !outer.ts().isAfter(inner.ts())
        && !EventFields.reportedAt(outer).isBefore(EventFields.reportedAt(inner));
  }

  private static String firstShared(Set<String> a, Set<String> b) {
    for (String id : a) {
      if (b.contains(id)) {
        return id;
      }
    }
    return null;
  }
}
