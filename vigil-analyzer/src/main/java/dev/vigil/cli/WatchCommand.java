package dev.vigil.cli;

import dev.vigil.api.Analyzer;
import dev.vigil.emobank.BankCorruptException;
import dev.vigil.ingest.QueueSource;
import dev.vigil.kafka.GroupWatcher;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.Stages;
import dev.vigil.watch.Durations;
import dev.vigil.watch.FindingsExport;
import dev.vigil.watch.HttpEndpoint;
import dev.vigil.watch.OtlpIntake;
import dev.vigil.watch.ThornRate;
import dev.vigil.watch.WatchMetrics;
import dev.vigil.watch.Watcher;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code watch}: stays up beside the agent, tails its queue, deposits events as they arrive and
 * runs a pass when a trigger fires (docs/COMMANDS.md#watch). Shares {@code run}'s pass options
 * ({@link PassOptionsMixin}); each pass's now is the clock's.
 */
@Command(
    name = "watch",
    header = "Stays up beside the agent and runs a pass when a trigger fires.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Stays up beside the agent: tails --queue, deposits each event into the",
      "EmoBank as it arrives (exactly once, across restarts), and runs a reflective",
      "pass when a trigger fires; triggers combine, never two passes at once.",
      "Each pass is written like run's into --out and kept under --out/passes/<ts>/.",
      "Several agents in one queue: a bank and reports per agent under",
      "agents/<agent>/, and --out/report.json is the fleet summary.",
      "A queue the agent has not created yet (before its first tool call) is",
      "waited for, with one line saying so.",
      "SIGTERM or SIGINT: gives the pass in flight 30 s to finish, keeps the read",
      "position, exits 0.",
      "Many hosts: --bootstrap instead of --queue joins the consumer group --group over",
      "--topic (written by ship): the group's instances share the agents, each event is",
      "deposited once in its agent's bank, whose journal lives in Kafka and follows the",
      "agent's partition; each pass's report.json also goes to the topic vigil.reports."
    })
final class WatchCommand extends VigilCommand {
  @Option(
      names = "--queue",
      paramLabel = "DIR",
      description = "The Chronicle queue the Vigil agent writes (or --bootstrap).")
  Path queue;

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      description =
          "Kafka's bootstrap servers: analyze a fleet as a consumer group instead of a local queue.")
  String bootstrap;

  @Option(
      names = "--topic",
      paramLabel = "TOPIC",
      defaultValue = "vigil.events",
      description = "With --bootstrap: the events' topic (default: ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--group",
      paramLabel = "GROUP",
      defaultValue = "vigil-analyzer",
      description =
          "With --bootstrap: the consumer group the instances share (default: ${DEFAULT-VALUE}).")
  String group;

  @Mixin PassOptionsMixin pass;

  @Option(
      names = "--every",
      paramLabel = "DURATION",
      converter = DurationOption.class,
      description = "A pass on a timer: 30s, 10m, 1h (units ms, s, m, h, d).")
  Duration every;

  @Option(
      names = "--after-events",
      paramLabel = "N",
      description = "A pass after every N new events (per agent).")
  Integer afterEvents;

  @Option(
      names = "--on-thorns",
      paramLabel = "K/DURATION",
      converter = ThornRateOption.class,
      description =
          "A pass as soon as K thorn-grade appraisals (frustration or anxiety at the RBT thorn threshold) "
              + "arrive within DURATION of event time, e.g. 3/1m.")
  ThornRate onThorns;

  @Option(
      names = "--on-alarm",
      paramLabel = "LEVEL",
      description =
          "After each pass whose alarm reaches LEVEL (watch or alarm): a line on stderr and one in "
              + "OUT/alarms.jsonl.")
  String onAlarm;

  @Option(
      names = "--http-port",
      paramLabel = "PORT",
      description =
          "Serve /metrics (Prometheus text format) and /health on this port (default: off;"
              + " docs/OPENTELEMETRY.md).")
  Integer httpPort;

  @Option(
      names = "--http-host",
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description = "With --http-port: the address to listen on (default: ${DEFAULT-VALUE}).")
  String httpHost;

  @Option(
      names = "--otlp-port",
      paramLabel = "PORT",
      description =
          "Receive OpenTelemetry traces over OTLP/HTTP (POST /v1/traces, protobuf or JSON) on this"
              + " port; their events join the queue's (default: off; docs/OPENTELEMETRY.md).")
  Integer otlpPort;

  @Option(
      names = "--otlp-host",
      paramLabel = "HOST",
      defaultValue = "127.0.0.1",
      description = "With --otlp-port: the address to listen on (default: ${DEFAULT-VALUE}).")
  String otlpHost;

  @Option(
      names = "--otlp-spool",
      paramLabel = "DIR",
      description =
          "With --otlp-port: where received requests are kept until mapped (default: otlp-spool"
              + " beside --emobank).")
  Path otlpSpool;

  @Option(
      names = "--otlp-endpoint",
      paramLabel = "URL",
      description =
          "Send each pass's alarm and findings as OTLP logs and metrics to this OTLP/HTTP endpoint,"
              + " e.g. http://collector:4318 (default: nothing leaves the machine;"
              + " docs/OPENTELEMETRY.md).")
  String otlpEndpoint;

  private final Clock clock;
  private final Stages stages;
  private final Map<String, String> env;

  WatchCommand() {
    this(Clock.systemUTC());
  }

  WatchCommand(Clock clock) {
    this(clock, Stages.defaults(), System.getenv());
  }

  /**
   * @param stages the work of each stage: tests swap one for a failing one
   * @param env the environment the LLM's configuration is read from
   */
  WatchCommand(Clock clock, Stages stages, Map<String, String> env) {
    this.clock = clock;
    this.stages = stages;
    this.env = env;
  }

  @Override
  // the signal handlers are the try resource for its scope only: installed before the body, removed
  // after it
  @SuppressWarnings("try")
  public Integer call() throws IOException {
    checkOptions();
    if (bootstrap != null) {
      return group();
    }
    Analyzer analyzer;
    try {
      analyzer =
          pass.applyTo(Analyzer.builder().clock(clock).stages(stages).queue(queue), env).build();
      QueueSource.isCreated(
          queue); // a path that can never be a queue is bad input; a missing one is waited for
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    WatchMetrics metrics = new WatchMetrics(clock);
    FindingsExport export = export();
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(
                analyzer.options(),
                every,
                afterEvents == null ? 0 : afterEvents,
                onThorns,
                onAlarm),
            metrics.observe(export == null ? analyzer::run : export.observe(analyzer::run)),
            clock,
            out(),
            err());
    metrics.deposits(watcher::deposited).delay(watcher::delay);
    try (FindingsExport exporting = export;
        StopSignals signals = StopSignals.install(watcher::stop);
        HttpEndpoint http = serve(metrics);
        OtlpIntake otlp = receive(analyzer)) {
      watcher.run();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    } catch (BankCorruptException e) {
      throw new BadInputException("EmoBank " + e.getMessage(), e);
    }
    return EXIT_OK;
  }

  /** Exits 2 naming the first option whose value cannot be used. */
  private void checkOptions() {
    if (onAlarm != null && !onAlarm.equals("watch") && !onAlarm.equals("alarm")) {
      throw new BadInputException("--on-alarm must be watch or alarm, not " + onAlarm);
    }
    if (afterEvents != null && afterEvents <= 0) {
      throw new BadInputException(
          "--after-events must be a positive number of events, not " + afterEvents);
    }
    checkPort(httpPort, "--http-port");
    checkPort(otlpPort, "--otlp-port");
    if (otlpPort != null && bootstrap != null) {
      throw new BadInputException(
          "--otlp-port needs --queue: received traces join a local queue (not --bootstrap)");
    }
    if ((queue == null) == (bootstrap == null)) {
      throw new BadInputException(
          "give exactly one of --queue DIR (one host) and --bootstrap HOST:PORT (Kafka)");
    }
  }

  private static void checkPort(Integer port, String option) {
    if (port != null && (port < 0 || port > 65_535)) {
      throw new BadInputException(option + " must be a port number, 0 to 65535, not " + port);
    }
  }

  /** {@code watch --bootstrap}: one instance of the consumer group. */
  // the signal handlers are the try resource for its scope only: installed before the body, removed
  // after it
  @SuppressWarnings("try")
  private int group() throws IOException {
    KafkaOptions.checkBootstrap(bootstrap);
    KafkaOptions.checkTopic(topic, "--topic");
    KafkaOptions.checkTopic(group, "--group");
    Analyzer analyzer;
    try {
      // each agent's pass reads the agent's events as this instance holds them; the template names
      // the topic
      analyzer =
          pass.applyTo(Analyzer.builder().clock(clock).stages(stages).events("kafka:" + topic), env)
              .build();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    WatchMetrics metrics = new WatchMetrics(clock);
    FindingsExport export = export();
    GroupWatcher watcher =
        new GroupWatcher(
            new GroupWatcher.Settings(
                analyzer.options(),
                bootstrap,
                topic,
                group,
                every,
                afterEvents == null ? 0 : afterEvents,
                onThorns,
                onAlarm),
            metrics.observe(export == null ? analyzer::run : export.observe(analyzer::run)),
            clock,
            out(),
            err());
    metrics.deposits(watcher::deposited);
    try (FindingsExport exporting = export;
        StopSignals signals = StopSignals.install(watcher::stop);
        HttpEndpoint http = serve(metrics)) {
      watcher.run();
    }
    return EXIT_OK;
  }

  /**
   * Starts {@code --http-port}'s server, or nothing without it; an address in use exits 2 naming
   * it, and a line on stdout says where it serves.
   */
  private HttpEndpoint serve(WatchMetrics metrics) throws IOException {
    if (httpPort == null) {
      return null;
    }
    HttpEndpoint http;
    try {
      http = HttpEndpoint.start(httpHost, httpPort, metrics);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    out()
        .println(
            Timestamps.format(clock.instant())
                + " watch serving /metrics and /health on http://"
                + httpHost
                + ":"
                + http.port());
    out().flush();
    return http;
  }

  /** {@code --otlp-endpoint}'s exporter, or null without it; a URL that is not one exits 2. */
  private FindingsExport export() {
    if (otlpEndpoint == null) {
      return null;
    }
    try {
      return FindingsExport.to(otlpEndpoint);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  /**
   * Starts {@code --otlp-port}'s receiver and its mapper, or nothing without it; an address in use
   * exits 2 naming it, and a line on stdout says where it receives.
   */
  private OtlpIntake receive(Analyzer analyzer) throws IOException {
    if (otlpPort == null) {
      return null;
    }
    Path bank = analyzer.options().emobank().toAbsolutePath();
    Path spool = otlpSpool != null ? otlpSpool : bank.resolveSibling("otlp-spool");
    OtlpIntake otlp = OtlpIntake.start(otlpHost, otlpPort, spool, queue, clock);
    out()
        .println(
            Timestamps.format(clock.instant())
                + " watch receiving OTLP traces on http://"
                + otlpHost
                + ":"
                + otlp.port()
                + "/v1/traces, spooled in "
                + spool);
    out().flush();
    return otlp;
  }

  /** Converts {@code --every}; a bad value is a usage error naming the option. */
  static final class DurationOption implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return Durations.parse(value, "--every");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** Converts {@code --on-thorns}; a bad value is a usage error naming the option. */
  static final class ThornRateOption implements ITypeConverter<ThornRate> {
    @Override
    public ThornRate convert(String value) {
      try {
        return ThornRate.parse(value, "--on-thorns");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
