package dev.vigil.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What {@code watch --http-port} serves (docs/OPENTELEMETRY.md#metrics-and-health): each agent's
 * alarm and thorns after its last pass, passes and their duration, the events deposited and the
 * append-to-appraisal delay, in a Micrometer registry that writes the Prometheus text format; and
 * the health: up, the last pass, the last error. It observes passes by wrapping the {@link
 * PassRunner}, so it sees every pass of a queue's or a consumer group's {@code watch} alike.
 */
public final class WatchMetrics {
  /** An agent label for a pass over every agent's events (a queue of one agent). */
  static final String ALL_AGENTS = "all";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final Clock clock;
  private final Instant started;
  private final Map<String, AgentGauges> agents = new ConcurrentHashMap<>();
  // the registry holds what a meter reads through a weak reference: the suppliers are kept here
  private volatile LongSupplier deposited = () -> 0;
  private volatile Supplier<DelayStats.Summary> delay;
  private volatile Instant lastPass;
  private volatile String lastError;

  /** One agent's figures after its last pass. */
  private static final class AgentGauges {
    volatile double score;
    volatile double level;
    volatile double thorns;
    volatile double lastPassSeconds;
  }

  /**
   * @param clock what pass durations and times are read from
   */
  public WatchMetrics(Clock clock) {
    this.clock = clock;
    this.started = clock.instant();
  }

  /**
   * Counts the events {@code watch} deposited, as {@code deposited} says.
   *
   * @return this
   */
  public WatchMetrics deposits(LongSupplier depositedSoFar) {
    this.deposited = depositedSoFar;
    FunctionCounter.builder("vigil.events.deposited", this, m -> m.deposited.getAsLong())
        .description("Events of the agents deposited into their EmoBanks, each once")
        .register(registry);
    return this;
  }

  /**
   * Reports the append-to-appraisal delay (the queue's lag), as {@code delay} says.
   *
   * @return this
   */
  public WatchMetrics delay(Supplier<DelayStats.Summary> delaySoFar) {
    this.delay = delaySoFar;
    Gauge.builder("vigil.appraisal.delay.median", this, m -> m.delay.get().medianMs() / 1e3)
        .description("Median delay from an event's append to its appraisal (the queue's lag)")
        .baseUnit("seconds")
        .register(registry);
    Gauge.builder("vigil.appraisal.delay.p99", this, m -> m.delay.get().p99Ms() / 1e3)
        .description("99th percentile of the delay from an event's append to its appraisal")
        .baseUnit("seconds")
        .register(registry);
    return this;
  }

  /** {@code runner}, each of whose passes is counted, timed and read for its alarm. */
  public PassRunner observe(PassRunner runner) {
    return o -> {
      Instant start = clock.instant();
      String agent = o.agent() != null ? o.agent() : ALL_AGENTS;
      try {
        PassResult r = runner.run(o);
        passed(agent, r, Duration.between(start, clock.instant()));
        return r;
      } catch (Exception | Error e) {
        failed(agent, o, e, Duration.between(start, clock.instant()));
        throw e;
      }
    };
  }

  private void passed(String agent, PassResult r, Duration took) {
    AgentGauges g = gauges(agent);
    g.score = r.alarm().score();
    g.level = level(r.alarm().level());
    g.thorns = r.diagnosis().thorns().size();
    Instant at = r.options().now();
    g.lastPassSeconds = at.getEpochSecond() + at.getNano() / 1e9;
    lastPass = at;
    timer(agent, "ok").record(took);
    counter(agent, "ok").increment();
  }

  private void failed(String agent, PassOptions o, Throwable e, Duration took) {
    lastError = Timestamps.format(o.now()) + " pass of agent " + agent + " failed: " + e;
    timer(agent, "failed").record(took);
    counter(agent, "failed").increment();
  }

  /** The alarm's level as a number: ok 0, watch 1, alarm 2. */
  static double level(String level) {
    return switch (level) {
      case "alarm" -> 2;
      case "watch" -> 1;
      default -> 0;
    };
  }

  private AgentGauges gauges(String agent) {
    return agents.computeIfAbsent(
        agent,
        a -> {
          AgentGauges g = new AgentGauges();
          Gauge.builder("vigil.alarm.score", g, x -> x.score)
              .description("The alarm's score after the agent's last pass, in [0, 1]")
              .tag("agent", a)
              .register(registry);
          Gauge.builder("vigil.alarm.level", g, x -> x.level)
              .description("The alarm's level after the agent's last pass: 0 ok, 1 watch, 2 alarm")
              .tag("agent", a)
              .register(registry);
          Gauge.builder("vigil.thorns", g, x -> x.thorns)
              .description("Thorns the agent's last pass diagnosed")
              .tag("agent", a)
              .register(registry);
          Gauge.builder("vigil.last.pass.timestamp", g, x -> x.lastPassSeconds)
              .description("When the agent's last pass ran (its now), Unix seconds")
              .tag("agent", a)
              .baseUnit("seconds")
              .register(registry);
          return g;
        });
  }

  private Counter counter(String agent, String outcome) {
    return Counter.builder("vigil.passes")
        .description("Passes run, by agent and outcome")
        .tag("agent", agent)
        .tag("outcome", outcome)
        .register(registry);
  }

  private Timer timer(String agent, String outcome) {
    return Timer.builder("vigil.pass.duration")
        .description("How long passes took, by agent and outcome")
        .tag("agent", agent)
        .tag("outcome", outcome)
        .register(registry);
  }

  /** The metrics in the Prometheus text format (version 0.0.4). */
  public String scrape() {
    return registry.scrape();
  }

  /** The health as JSON: up, when it started, the last pass, the last error. */
  public String health() {
    ObjectNode h = MAPPER.createObjectNode();
    h.put("status", "up");
    h.put("started", Timestamps.format(started));
    Instant last = lastPass;
    h.put("last_pass", last == null ? null : Timestamps.format(last));
    h.put("last_error", lastError);
    return h.toString();
  }
}
