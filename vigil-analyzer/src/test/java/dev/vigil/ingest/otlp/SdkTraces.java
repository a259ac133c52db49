package dev.vigil.ingest.otlp;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Spans made by the real OpenTelemetry Java SDK, with explicit times, and written as OTLP JSON by
 * the SDK's own marshaller (the one its OTLP exporters and logging exporter use): what an
 * instrumented agent's collector writes to a file.
 */
public final class SdkTraces implements AutoCloseable {
  private final List<SpanData> finished = new ArrayList<>();
  private final SdkTracerProvider provider;
  private final Tracer tracer;

  /** Spans of {@code service}, kept until {@link #take()}. */
  public SdkTraces(String service) {
    this(service, null);
  }

  /**
   * Spans of {@code service}, kept until {@link #take()} and also handed to {@code exporter} as
   * each ends (null: none), as a simple span processor does.
   */
  public SdkTraces(String service, SpanExporter exporter) {
    SpanExporter collect =
        new SpanExporter() {
          @Override
          public CompletableResultCode export(Collection<SpanData> spans) {
            synchronized (finished) {
              finished.addAll(spans);
            }
            return CompletableResultCode.ofSuccess();
          }

          @Override
          public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
          }

          @Override
          public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
          }
        };
    var builder =
        SdkTracerProvider.builder()
            .setResource(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), service)))
            .addSpanProcessor(SimpleSpanProcessor.create(collect));
    if (exporter != null) {
      builder.addSpanProcessor(SimpleSpanProcessor.create(exporter));
    }
    provider = builder.build();
    tracer = provider.get("vigil-test");
  }

  /** Starts a span at {@code at} under {@code parent} (null: a new trace). */
  public Span start(String name, Span parent, Instant at, Attributes attributes) {
    var b =
        tracer
            .spanBuilder(name)
            .setStartTimestamp(at.toEpochMilli(), TimeUnit.MILLISECONDS)
            .setAllAttributes(attributes);
    b = parent == null ? b.setNoParent() : b.setParent(Context.root().with(parent));
    return b.startSpan();
  }

  /** Ends {@code span} at {@code at}. */
  public static void end(Span span, Instant at) {
    span.end(at.toEpochMilli(), TimeUnit.MILLISECONDS);
  }

  /** Ends {@code span} at {@code at} as failed with {@code error}, as instrumentations do. */
  public static void fail(Span span, Instant at, Throwable error) {
    span.recordException(error);
    span.setStatus(StatusCode.ERROR, error.getMessage());
    span.setAttribute("error.type", error.getClass().getName());
    end(span, at);
  }

  /** The spans ended since the last call, taken. */
  public List<SpanData> take() {
    synchronized (finished) {
      List<SpanData> out = List.copyOf(finished);
      finished.clear();
      return out;
    }
  }

  /** One OTLP JSON export request holding {@code spans}, as one line. */
  public static String jsonLine(Collection<SpanData> spans) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TraceRequestMarshaler.create(spans).writeJsonTo(out);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** One OTLP protobuf export request holding {@code spans}. */
  public static byte[] protobuf(Collection<SpanData> spans) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TraceRequestMarshaler.create(spans).writeBinaryTo(out);
    return out.toByteArray();
  }

  @Override
  public void close() {
    provider.close();
  }
}
