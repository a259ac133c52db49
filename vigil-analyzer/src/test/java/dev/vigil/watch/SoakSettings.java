package dev.vigil.watch;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * What a soak runs, from system properties ({@code bench/soak.sh} sets them; {@code verify} runs
 * the short defaults): {@code vigil.soak.minutes} (the load's length, 0.75 by default), {@code
 * vigil.soak.rate} (events per second from all agent processes together: 800 for a run under 2
 * minutes, else 3,000, so that an hour makes 10^7), {@code vigil.soak.agents} (agent processes, 3),
 * {@code vigil.soak.kill} (seconds between two SIGKILLs of one process, {@code 10-60}; {@code 6-15}
 * under 2 minutes), {@code vigil.soak.every} ({@code watch --every}, 10s; 5s under 2 minutes),
 * {@code vigil.soak.watch-xmx} (watch's heap, 1g) and {@code vigil.soak.seed} (the kill points'
 * seed, random unless given).
 *
 * @param load how long the agents make calls
 * @param rate events per second, all agent processes together
 * @param agents agent processes running at once
 * @param killMin shortest time between two kills of one process
 * @param killMax longest
 * @param every {@code watch --every}
 * @param watchXmx {@code watch}'s {@code -Xmx}
 * @param seed the seed of the kill points
 */
record SoakSettings(
    Duration load,
    double rate,
    int agents,
    Duration killMin,
    Duration killMax,
    String every,
    String watchXmx,
    long seed) {
  /** Every this many calls of an agent fails (a thorn-grade appraisal, so that passes diagnose). */
  static final int FAIL_EVERY = 5;

  static SoakSettings fromSystemProperties() {
    double minutes = Double.parseDouble(System.getProperty("vigil.soak.minutes", "0.75"));
    boolean shortRun = minutes < 2;
    String[] kill =
        System.getProperty("vigil.soak.kill", shortRun ? "6-15" : "10-60").split("-", 2);
    String seed = System.getProperty("vigil.soak.seed", "");
    return new SoakSettings(
        Duration.ofMillis(Math.round(minutes * 60_000)),
        Double.parseDouble(System.getProperty("vigil.soak.rate", shortRun ? "800" : "3000")),
        Integer.parseInt(System.getProperty("vigil.soak.agents", "3")),
        Duration.ofSeconds(Long.parseLong(kill[0].trim())),
        Duration.ofSeconds(Long.parseLong(kill[1].trim())),
        System.getProperty("vigil.soak.every", shortRun ? "5s" : "10s"),
        System.getProperty("vigil.soak.watch-xmx", "1g"),
        seed.isBlank() ? new Random().nextLong() : Long.parseLong(seed.trim()));
  }

  /**
   * Until when {@code watch} is killed: the last third of the load (at least 15 s) leaves the last
   * {@code watch} alone, so that its heap and file descriptors can be compared from its warm-up to
   * the end.
   */
  Duration watchChaosUntil() {
    Duration calm = load.dividedBy(3);
    if (calm.compareTo(Duration.ofSeconds(15)) < 0) {
      calm = Duration.ofSeconds(15);
    }
    return load.minus(calm).isNegative() ? Duration.ZERO : load.minus(calm);
  }

  /** One SIGKILL of the schedule: of agent slot {@code slot}, or of watch when it is -1. */
  record Kill(Duration at, int slot) {
    String what() {
      return slot < 0 ? "watch" : "agent " + slot;
    }
  }

  /**
   * The kill points, in time order: each agent slot over the whole load, watch until {@link
   * #watchChaosUntil()}, each next kill of a process {@code killMin..killMax} after its last; the
   * same seed gives the same points.
   */
  List<Kill> schedule() {
    Random random = new Random(seed);
    List<Kill> kills = new ArrayList<>();
    for (int slot = -1; slot < agents; slot++) {
      Duration until = slot < 0 ? watchChaosUntil() : load;
      Duration at = Duration.ZERO;
      while (true) {
        long spanMs = killMax.toMillis() - killMin.toMillis();
        at = at.plus(killMin).plusMillis(spanMs <= 0 ? 0 : (long) (random.nextDouble() * spanMs));
        if (at.compareTo(until) >= 0) {
          break;
        }
        kills.add(new Kill(at, slot));
      }
    }
    kills.sort((a, b) -> a.at().compareTo(b.at()));
    return kills;
  }

  String describe() {
    return String.format(
        Locale.ROOT,
        "seed %d (replay: -Dvigil.soak.seed=%d), load %.0f s at %.0f events/s from %d agent"
            + " processes, SIGKILL every %d-%d s, watch --every %s -Xmx%s",
        seed,
        seed,
        load.toMillis() / 1000.0,
        rate,
        agents,
        killMin.toSeconds(),
        killMax.toSeconds(),
        every,
        watchXmx);
  }
}
