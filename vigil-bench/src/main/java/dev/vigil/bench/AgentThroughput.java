package dev.vigil.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The agent's two throughput figures (docs/BENCHMARKS.md), each child JVM run by {@link
 * BackToBack}:
 *
 * <ul>
 *   <li>back to back: a tool called in a loop, 1 thread x 2,000,000 calls, then 16 threads x
 *       125,000: calls per second of the loop and events per second until the last event is in the
 *       queue, and every event counted in the queue (none lost); plain and the OpenTelemetry agent
 *       beside it (calls per second);
 *   <li>CPU per call: the same application pinned to one core with {@code taskset -c 0}, the whole
 *       process's CPU time (the writer thread included) from the loop's start until the last event
 *       is in the queue, per call; plain, Vigil and the OpenTelemetry agent, and what each agent
 *       adds.
 * </ul>
 *
 * Each in three shapes of call ({@link #SHAPES}, {@link BackToBackApp}): values built for each call
 * as applications pass them (records), objects that can change (a bean in, a map out), and a
 * literal. Each configuration runs in turn, run after run (3, or 1 with {@code --quick}); the
 * median of the runs is printed.
 */
final class AgentThroughput {
  /** The runs of one part, by shape and configuration within each run. */
  record Part(
      String name,
      List<BackToBack.Round> rounds,
      List<BackToBack.Run> runs,
      int repetitions,
      Map<String, Path> profiles) {
    List<BackToBack.Run> of(String setup, String shape) {
      return runs.stream()
          .filter(r -> r.setup().name().equals(setup) && r.setup().shape().equals(shape))
          .toList();
    }
  }

  /**
   * The shapes of call ({@link BackToBackApp}): values built for each call as applications pass
   * them, objects that can change, then the literal that the encoder meets as a value it has just
   * written.
   */
  static final List<String> SHAPES = List.of("fresh", "objects", "literal");

  private AgentThroughput() {}

  /**
   * The back-to-back figures: plain, Vigil and OpenTelemetry, not pinned; Vigil's children under
   * {@code profiler} when it is not null.
   */
  static Part backToBack(
      String java, Path vigil, Path otel, Path work, boolean quick, Profiler profiler)
      throws Exception {
    List<BackToBack.Round> rounds =
        quick
            ? List.of(new BackToBack.Round(1, 200_000), new BackToBack.Round(16, 12_500))
            : List.of(new BackToBack.Round(1, 2_000_000), new BackToBack.Round(16, 125_000));
    return part("backtoback", java, vigil, otel, work, quick, rounds, false, profiler);
  }

  /**
   * The CPU figures: plain, Vigil and OpenTelemetry, each pinned to one core; Vigil's children
   * under {@code profiler} when it is not null.
   */
  static Part cpu(String java, Path vigil, Path otel, Path work, boolean quick, Profiler profiler)
      throws Exception {
    List<BackToBack.Round> rounds = List.of(new BackToBack.Round(1, quick ? 200_000 : 2_000_000));
    return part("cpu", java, vigil, otel, work, quick, rounds, true, profiler);
  }

  private static Part part(
      String name,
      String java,
      Path vigil,
      Path otel,
      Path work,
      boolean quick,
      List<BackToBack.Round> rounds,
      boolean pinned,
      Profiler profiler)
      throws Exception {
    int repetitions = quick ? 1 : 3;
    // The measured rounds once unmeasured first: the first rounds of a JVM pay once for what a
    // running application has behind it (the heap's first touch as the collector grows the young
    // generation, and more for the OpenTelemetry agent); docs/BENCHMARKS.md, "Changed 2026-12-02
    // 11:25-11:55 UTC".
    List<BackToBack.Round> warmUp = new ArrayList<>();
    warmUp.add(new BackToBack.Round(1, quick ? 100_000 : 500_000));
    warmUp.addAll(rounds);
    List<BackToBack.Run> runs = new ArrayList<>();
    Map<String, Path> profiles = new LinkedHashMap<>();
    for (int rep = 1; rep <= repetitions; rep++) {
      Path dir = Files.createDirectories(work.resolve(name + "-" + rep));
      List<BackToBack.Setup> setups = new ArrayList<>();
      for (String shape : SHAPES) {
        List<String> extra = List.of();
        if (profiler != null) {
          Path profile = profiler.file(name + "-" + rep + "-vigil-" + shape);
          extra = List.of(profiler.option(profile));
          profiles.put("Vigil, " + name + " run " + rep + ", " + shape + " values", profile);
        }
        setups.add(BackToBack.plain(pinned, shape));
        setups.add(BackToBack.vigil(vigil, dir, pinned, shape, extra));
        setups.add(BackToBack.otel(otel, pinned, shape));
      }
      for (BackToBack.Setup setup : setups) {
        System.out.println(
            "--- "
                + name
                + " run "
                + rep
                + ", "
                + setup.name()
                + ", "
                + setup.shape()
                + " values: "
                + String.join(" ", setup.jvmOptions()));
        BackToBack.Run run =
            BackToBack.run(java, setup, warmUp, rounds, dir.resolve(setup.name() + ".err"));
        for (BackToBack.Timing t : run.rounds()) {
          System.out.printf(
              "    %2d x %,d: loop %,.0f calls/s, recorded %,.0f events/s, CPU %.0f ns/call"
                  + " (system %.0f)%s%n",
              t.round().threads(),
              t.round().perThread(),
              t.loopPerSecond(),
              t.recordedPerSecond(),
              t.cpuPerCall(),
              t.systemPerCall(),
              busiest(t));
        }
        if (run.failure() != null) {
          System.out.println("    FAILED: " + run.failure());
        }
        runs.add(run);
      }
    }
    return new Part(name, rounds, runs, repetitions, profiles);
  }

  /**
   * The busiest thread beside the calling ones, as a share of the round until the last event was in
   * the queue, and the system time's share of its CPU; empty when the child named none.
   */
  private static String busiest(BackToBack.Timing t) {
    ThreadTimes.Times b = t.busiest();
    if (b == null || b.cpu() <= 0) {
      return "";
    }
    return String.format(
        "; busiest other thread %s: CPU %.0f %% of the round, %.0f %% of it system",
        b.name(), 100.0 * b.cpu() / t.recordedNanos(), 100.0 * (b.cpu() - b.user()) / b.cpu());
  }

  /**
   * Prints the summary of each profile of the part's first run (the later runs' files stay beside
   * it).
   */
  static void printProfiles(Part part) {
    for (Map.Entry<String, Path> p : part.profiles().entrySet()) {
      if (!p.getKey().contains(" run 1,")) {
        continue;
      }
      try {
        Profiler.summarize(p.getKey(), p.getValue(), PROFILE_ROWS, System.out);
      } catch (java.io.IOException | RuntimeException e) {
        System.out.println(p.getKey() + ": no profile (" + e + ")");
      }
    }
  }

  /** Rows of each list of a profile's summary. */
  private static final int PROFILE_ROWS = 15;

  static void printBackToBack(Part part) {
    System.out.println(
        "back to back (median of "
            + part.repetitions()
            + " runs, each child's rounds measured after one unmeasured pass of them; loop: calls/s"
            + " of the calling loop; recorded: events/s until the last event is in the queue; goal:"
            + " Vigil records 1,000,000 events/s or more, none lost):");
    for (String shape : SHAPES) {
      System.out.println("  " + describe(shape) + ":");
      for (int i = 0; i < part.rounds().size(); i++) {
        printRound(part, shape, i);
      }
      printLoss(part, shape);
    }
  }

  private static String describe(String shape) {
    return switch (shape) {
      case "fresh" ->
          "fresh values, forecast(String built per call, record Query) -> new record Forecast of"
              + " three fields";
      case "objects" ->
          "objects, plan(bean Trip of three fields, a String built per call) -> new LinkedHashMap"
              + " of three entries";
      default -> "a literal, tool(\"weather in Paris\", int) -> int";
    };
  }

  private static void printRound(Part part, String shape, int at) {
    BackToBack.Round round = part.rounds().get(at);
    String label =
        String.format(
            "%2d thread%s x %,d",
            round.threads(), round.threads() == 1 ? " " : "s", round.perThread());
    for (String setup : List.of("plain", "Vigil", "OpenTelemetry")) {
      List<BackToBack.Run> runs = part.of(setup, shape);
      String failure = failure(runs);
      if (failure != null) {
        System.out.printf("    %-22s %-13s FAILED: %s%n", label, setup, failure);
        continue;
      }
      double loop = median(runs, r -> r.rounds().get(at).loopPerSecond());
      if (!setup.equals("Vigil")) {
        System.out.printf("    %-22s %-13s loop %,12.0f calls/s%n", label, setup, loop);
        continue;
      }
      double recorded = median(runs, r -> r.rounds().get(at).recordedPerSecond());
      System.out.printf(
          "    %-22s %-13s loop %,12.0f calls/s, recorded %,11.0f events/s (%s)%n",
          label, setup, loop, recorded, recorded >= 1_000_000 ? "goal met" : "goal not met");
    }
  }

  /** Prints the CPU figures, fresh values first. */
  static void printCpu(Part part) {
    BackToBack.Round round = part.rounds().get(0);
    System.out.printf(
        "CPU per call, the whole process pinned to one core (taskset -c 0), 1 thread x %,d calls,"
            + " from the loop's start until the last event is in the queue, after an unmeasured"
            + " round of the same (median of %d runs;"
            + " ns/call; added: minus plain; goal: Vigil adds at most what the OpenTelemetry agent"
            + " adds):%n",
        round.perThread(), part.repetitions());
    for (String shape : SHAPES) {
      System.out.println("  " + describe(shape) + ":");
      printCpu(part, shape);
      printLoss(part, shape);
    }
  }

  private static void printCpu(Part part, String shape) {
    double[] added = {Double.NaN, Double.NaN};
    double plain = Double.NaN;
    for (String setup : List.of("plain", "Vigil", "OpenTelemetry")) {
      List<BackToBack.Run> runs = part.of(setup, shape);
      String failure = failure(runs);
      if (failure != null) {
        System.out.printf("    %-13s FAILED: %s%n", setup, failure);
        continue;
      }
      double cpu = median(runs, r -> r.rounds().get(0).cpuPerCall());
      if (setup.equals("plain")) {
        plain = cpu;
        System.out.printf("    %-13s %7.0f ns/call%n", setup, cpu);
        continue;
      }
      added[setup.equals("Vigil") ? 0 : 1] = cpu - plain;
      String extra =
          setup.equals("Vigil")
              ? String.format(
                  " per event (recorded %,.0f events/s)",
                  median(runs, r -> r.rounds().get(0).recordedPerSecond()))
              : "";
      System.out.printf(
          "    %-13s %7.0f ns/call  added %7.0f ns%s%n", setup, cpu, cpu - plain, extra);
    }
    printSystem(part, shape);
    double ratio = added[0] / added[1];
    if (Double.isNaN(ratio)) {
      System.out.println("    (no ratio: a configuration failed)");
      return;
    }
    System.out.printf(
        "    Vigil adds %.2f x the OpenTelemetry agent's CPU per call (goal: at most 1 x: %s)%n",
        ratio, ratio <= 1 ? "met" : "not met");
  }

  /**
   * The system time within each configuration's CPU per call (the kernel's work for the process:
   * page faults, the file system, system calls), where the system says.
   */
  private static void printSystem(Part part, String shape) {
    StringBuilder line = new StringBuilder("    of which system time (the kernel's):");
    for (String setup : List.of("plain", "Vigil", "OpenTelemetry")) {
      List<BackToBack.Run> runs = part.of(setup, shape);
      double system =
          failure(runs) != null ? Double.NaN : median(runs, r -> r.rounds().get(0).systemPerCall());
      line.append(
          Double.isNaN(system)
              ? String.format(" %s unknown,", setup)
              : String.format(" %s %.0f ns,", setup, system));
    }
    line.setLength(line.length() - 1);
    System.out.println(line + " per call");
  }

  private static void printLoss(Part part, String shape) {
    List<BackToBack.Run> vigil = part.of("Vigil", shape);
    if (failure(vigil) != null) {
      return;
    }
    StringBuilder counts = new StringBuilder();
    boolean noneLost = true;
    for (BackToBack.Run r : vigil) {
      noneLost &= r.noneLost();
      counts
          .append(counts.length() == 0 ? "" : ", ")
          .append(String.format("%,d of %,d", r.recorded(), r.callsMade()));
      if (r.kinds().size() > 1) {
        counts.append(" ").append(r.kinds());
      }
    }
    System.out.printf(
        "    Vigil's queue held %s calls' events (warm-up included): %s; %d bytes an event%n",
        counts,
        noneLost ? "none lost" : "EVENTS LOST",
        vigil.isEmpty() ? 0 : vigil.get(0).queue().bytesAnEvent());
  }

  private static String failure(List<BackToBack.Run> runs) {
    return runs.stream()
        .map(BackToBack.Run::failure)
        .filter(f -> f != null)
        .findFirst()
        .orElse(null);
  }

  private static double median(List<BackToBack.Run> runs, ToDoubleFunction<BackToBack.Run> figure) {
    double[] v = runs.stream().mapToDouble(figure).sorted().toArray();
    Arrays.sort(v);
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
