package dev.vigil.diagnose.detect;

import dev.vigil.dialogue.Conversation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The detectors a pass runs, chosen with {@code --detectors all|none|NAME,…} (docs/DETECTORS.md);
 * all of Vigil's and the rules file's policy rules are on by default.
 */
public final class Detectors {
  private static final Map<String, Function<DetectorSettings, Detector>> ALL =
      new LinkedHashMap<>();

  static {
    ALL.put(PrematureSuccess.NAME, PrematureSuccess::new);
    ALL.put(Latency.NAME, Latency::new);
    ALL.put(TimestampInconsistent.NAME, s -> new TimestampInconsistent());
    ALL.put(ToolCallExplosion.NAME, ToolCallExplosion::new);
    ALL.put(FailurePlateau.NAME, FailurePlateau::new);
    ALL.put(UnconfirmedWrite.NAME, UnconfirmedWrite::new);
    ALL.put(ClaimWithoutAction.NAME, ClaimWithoutAction::new);
    ALL.put(UserCorrection.NAME, UserCorrection::new);
    ALL.put(WriteAfterRefusal.NAME, WriteAfterRefusal::new);
  }

  private final List<Detector> selected;

  private Detectors(List<Detector> selected) {
    this.selected = List.copyOf(selected);
  }

  /** Every detector's name, in the order they run. */
  public static List<String> names() {
    return List.copyOf(ALL.keySet());
  }

  /**
   * The detectors named by a {@code --detectors} value.
   *
   * @throws IllegalArgumentException naming the unknown names and the known ones
   */
  public static Detectors select(String spec, DetectorSettings settings) {
    return select(spec, settings, List.of());
  }

  /**
   * The detectors named by a {@code --detectors} value, among Vigil's and those the rules file
   * defines (its policy rules, {@code policy.<name>}), which run after Vigil's; {@code all} is
   * every one of both.
   *
   * @throws IllegalArgumentException naming the unknown names and the known ones
   */
  public static Detectors select(String spec, DetectorSettings settings, List<Detector> fromRules) {
    String s = spec.strip();
    if (s.equals("all")) {
      return of(names(), settings).plus(fromRules);
    }
    if (s.equals("none")) {
      return new Detectors(List.of());
    }
    List<String> known = new ArrayList<>(names());
    fromRules.forEach(d -> known.add(d.name()));
    List<String> wanted = new ArrayList<>();
    List<String> unknown = new ArrayList<>();
    for (String name : s.split(",", -1)) {
      String n = name.strip();
      if (n.isEmpty()) {
        continue;
      }
      if (known.contains(n)) {
        if (!wanted.contains(n)) {
          wanted.add(n);
        }
      } else {
        unknown.add(n);
      }
    }
    if (!unknown.isEmpty() || wanted.isEmpty()) {
      throw new IllegalArgumentException(
          "--detectors: unknown detector(s) "
              + (unknown.isEmpty() ? "\"" + spec + "\"" : unknown)
              + "; use all, none or a comma-separated list of "
              + String.join(", ", known));
    }
    return of(wanted, settings)
        .plus(fromRules.stream().filter(d -> wanted.contains(d.name())).toList());
  }

  /** Exactly these detectors, in Vigil's order. */
  public static Detectors of(List<String> names, DetectorSettings settings) {
    List<Detector> out = new ArrayList<>();
    ALL.forEach(
        (name, make) -> {
          if (names.contains(name)) {
            out.add(make.apply(settings));
          }
        });
    return new Detectors(out);
  }

  /** A pass with just these detectors (tests use it to swap one in). */
  public static Detectors using(List<Detector> detectors) {
    return new Detectors(detectors);
  }

  /**
   * These detectors and, after them, a user's own.
   *
   * @throws IllegalArgumentException when two detectors would share a name (reports key them by
   *     name)
   */
  public Detectors plus(List<Detector> more) {
    List<Detector> all = new ArrayList<>(selected);
    List<String> names = new ArrayList<>(selectedNames());
    for (Detector d : more) {
      if (names.contains(d.name())) {
        throw new IllegalArgumentException(
            "detector "
                + d.getClass().getName()
                + ": the name \""
                + d.name()
                + "\" is taken; each detector needs a name of its own (taken: "
                + String.join(", ", names)
                + ")");
      }
      names.add(d.name());
      all.add(d);
    }
    return new Detectors(all);
  }

  /**
   * Starts one pass's reading of the window by every selected detector.
   *
   * @param derived where the derived events go, with the name of the detector that found them, as
   *     they are found
   */
  public DetectorScans start(BiConsumer<String, Derived> derived) {
    return new DetectorScans(selected, derived);
  }

  /**
   * Starts one pass's reading of the window by every selected detector, with another reader of the
   * same one reading of the dialogue.
   *
   * @param derived where the derived events go, with the name of the detector that found them, as
   *     they are found
   * @param reader subscribed to the dialogue the conversation detectors read, finished when they
   *     finish
   */
  public DetectorScans start(
      BiConsumer<String, Derived> derived, Conversation.Listener<WindowEvent> reader) {
    return new DetectorScans(selected, derived, reader);
  }

  /**
   * Runs every selected detector over a whole window, oldest event first, as a pass does (the
   * conversation detectors read the dialogue once for all); the detections list their derived
   * events.
   */
  public List<Detection> run(List<WindowEvent> window) {
    List<List<Derived>> derived = new ArrayList<>(selected.size());
    selected.forEach(d -> derived.add(new ArrayList<>()));
    DetectorScans scans = new DetectorScans(selected, i -> derived.get(i)::add);
    window.forEach(scans::accept);
    List<Detection> found = scans.finish();
    List<Detection> out = new ArrayList<>(found.size());
    for (int i = 0; i < found.size(); i++) {
      out.add(found.get(i).withDerived(derived.get(i)));
    }
    return out;
  }

  /** The selected detectors' names. */
  public List<String> selectedNames() {
    return selected.stream().map(Detector::name).toList();
  }
}
