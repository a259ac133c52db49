package dev.vigil.watch;

import dev.vigil.diagnose.Alarm;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.orchestrate.PassResult;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.logs.Logger;
import io.opentelemetry.api.logs.Severity;
import io.opentelemetry.api.metrics.DoubleGauge;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongGauge;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.exporter.otlp.http.logs.OtlpHttpLogRecordExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.sdk.logs.SdkLoggerProvider;
import io.opentelemetry.sdk.logs.export.BatchLogRecordProcessor;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code watch --otlp-endpoint URL} (docs/OPENTELEMETRY.md#findings-out): after each pass, its
 * alarm and each detector's findings as OTLP log records (the agent, the sessions and the reasons
 * as attributes), and the alarm's score and level, the thorns and the passes as OTLP metrics, sent
 * by the OpenTelemetry SDK's OTLP/HTTP exporters to {@code URL/v1/logs} and {@code URL/v1/metrics}.
 * Each pass's records and figures are flushed when the pass ends. Nothing leaves the machine
 * without this option.
 */
public final class FindingsExport implements AutoCloseable {
  static final AttributeKey<String> AGENT = AttributeKey.stringKey("vigil.agent");
  static final AttributeKey<String> LEVEL = AttributeKey.stringKey("vigil.alarm.level");
  static final AttributeKey<Double> SCORE = AttributeKey.doubleKey("vigil.alarm.score");
  static final AttributeKey<List<String>> REASONS = AttributeKey.stringArrayKey("vigil.reasons");
  static final AttributeKey<List<String>> SESSIONS = AttributeKey.stringArrayKey("vigil.sessions");
  static final AttributeKey<String> DETECTOR = AttributeKey.stringKey("vigil.detector");
  static final AttributeKey<Long> COUNT = AttributeKey.longKey("vigil.count");

  private static final Duration FLUSH = Duration.ofSeconds(10);

  private final SdkLoggerProvider logs;
  private final SdkMeterProvider metrics;
  private final Logger logger;
  private final DoubleGauge score;
  private final LongGauge level;
  private final LongGauge thorns;
  private final LongCounter passes;

  private FindingsExport(SdkLoggerProvider logs, SdkMeterProvider metrics) {
    this.logs = logs;
    this.metrics = metrics;
    this.logger = logs.get("dev.vigil.watch");
    Meter meter = metrics.get("dev.vigil.watch");
    score =
        meter
            .gaugeBuilder("vigil.alarm.score")
            .setDescription("The alarm's score after the agent's last pass, in [0, 1]")
            .build();
    level =
        meter
            .gaugeBuilder("vigil.alarm.level")
            .ofLongs()
            .setDescription("The alarm's level after the agent's last pass: 0 ok, 1 watch, 2 alarm")
            .build();
    thorns =
        meter
            .gaugeBuilder("vigil.thorns")
            .ofLongs()
            .setDescription("Thorns the agent's last pass diagnosed")
            .build();
    passes = meter.counterBuilder("vigil.passes").setDescription("Passes run").build();
  }

  /**
   * Exports to the OTLP/HTTP endpoint {@code url} (its base, as {@code
   * OTEL_EXPORTER_OTLP_ENDPOINT}: {@code http://collector:4318}).
   *
   * @throws IllegalArgumentException naming the URL when it is not an http or https URL
   */
  public static FindingsExport to(String url) {
    URI base;
    try {
      base = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--otlp-endpoint " + url + " is not a URL", e);
    }
    if (!("http".equals(base.getScheme()) || "https".equals(base.getScheme()))
        || base.getHost() == null) {
      throw new IllegalArgumentException(
          "--otlp-endpoint " + url + " is not an http:// or https:// URL");
    }
    String root = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    Resource resource =
        Resource.getDefault()
            .merge(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "vigil")));
    SdkLoggerProvider logs =
        SdkLoggerProvider.builder()
            .setResource(resource)
            .addLogRecordProcessor(
                BatchLogRecordProcessor.builder(
                        OtlpHttpLogRecordExporter.builder().setEndpoint(root + "/v1/logs").build())
                    .build())
            .build();
    SdkMeterProvider metrics =
        SdkMeterProvider.builder()
            .setResource(resource)
            .registerMetricReader(
                PeriodicMetricReader.builder(
                        OtlpHttpMetricExporter.builder().setEndpoint(root + "/v1/metrics").build())
                    .setInterval(Duration.ofMinutes(1))
                    .build())
            .build();
    return new FindingsExport(logs, metrics);
  }

  /** {@code runner}, each of whose passes is exported when it ends. */
  public PassRunner observe(PassRunner runner) {
    return o -> {
      PassResult r = runner.run(o);
      passed(o.agent() != null ? o.agent() : WatchMetrics.ALL_AGENTS, r);
      return r;
    };
  }

  private void passed(String agent, PassResult r) {
    Attributes byAgent = Attributes.of(AGENT, agent);
    Alarm alarm = r.alarm();
    score.set(alarm.score(), byAgent);
    level.set((long) WatchMetrics.level(alarm.level()), byAgent);
    thorns.set(r.diagnosis().thorns().size(), byAgent);
    passes.add(1, byAgent);
    List<String> reasons = new ArrayList<>();
    alarm.reasons().forEach(x -> reasons.add(x.source() + " x" + x.count()));
    Set<String> allSessions = new LinkedHashSet<>();
    alarm.sessions().forEach(s -> allSessions.add(s.session()));
    for (Detection d : r.detections()) {
      if (d.count() > 0) {
        Set<String> sessions = sessions(d);
        allSessions.addAll(sessions);
        logger
            .logRecordBuilder()
            .setTimestamp(r.options().now())
            .setSeverity(Severity.WARN)
            .setBody(d.summary().isEmpty() ? d.name() + " found " + d.count() : d.summary())
            .setAllAttributes(
                Attributes.builder()
                    .put(AGENT, agent)
                    .put(DETECTOR, d.name())
                    .put(COUNT, (long) d.count())
                    .put(SESSIONS, List.copyOf(sessions))
                    .build())
            .emit();
      }
    }
    logger
        .logRecordBuilder()
        .setTimestamp(r.options().now())
        .setSeverity(severity(alarm.level()))
        .setBody(alarm.line())
        .setAllAttributes(
            Attributes.builder()
                .put(AGENT, agent)
                .put(LEVEL, alarm.level())
                .put(SCORE, alarm.score())
                .put(REASONS, reasons)
                .put(SESSIONS, List.copyOf(allSessions))
                .build())
        .emit();
    logs.forceFlush().join(FLUSH.toMillis(), TimeUnit.MILLISECONDS);
    metrics.forceFlush().join(FLUSH.toMillis(), TimeUnit.MILLISECONDS);
  }

  private static Set<String> sessions(Detection d) {
    Set<String> out = new LinkedHashSet<>();
    for (WindowEvent e : d.cited()) {
      if (e.event().session() != null) {
        out.add(e.event().session());
      }
    }
    return out;
  }

  private static Severity severity(String level) {
    return switch (level) {
      case "alarm" -> Severity.ERROR;
      case "watch" -> Severity.WARN;
      default -> Severity.INFO;
    };
  }

  @Override
  public void close() {
    logs.close();
    metrics.close();
  }
}
