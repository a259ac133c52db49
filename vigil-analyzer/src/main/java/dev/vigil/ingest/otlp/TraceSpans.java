package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.opentelemetry.proto.trace.v1.Status;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The spans of an OTLP export request, read into {@link TraceSpan}s. */
public final class TraceSpans {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private TraceSpans() {}

  /** Every span of the request, in the request's order. */
  public static List<TraceSpan> of(ExportTraceServiceRequest request) {
    List<TraceSpan> out = new ArrayList<>();
    for (ResourceSpans rs : request.getResourceSpansList()) {
      String service = attributes(rs.getResource().getAttributesList()).get("service.name");
      for (ScopeSpans ss : rs.getScopeSpansList()) {
        for (Span s : ss.getSpansList()) {
          out.add(span(s, service));
        }
      }
    }
    return out;
  }

  private static TraceSpan span(Span s, String service) {
    List<TraceSpan.SpanEvent> events = new ArrayList<>(s.getEventsCount());
    for (Span.Event e : s.getEventsList()) {
      events.add(
          new TraceSpan.SpanEvent(
              e.getName(), e.getTimeUnixNano(), attributes(e.getAttributesList())));
    }
    return new TraceSpan(
        hex(s.getTraceId()),
        hex(s.getSpanId()),
        hex(s.getParentSpanId()),
        s.getName(),
        s.getStartTimeUnixNano(),
        s.getEndTimeUnixNano(),
        attributes(s.getAttributesList()),
        s.getStatus().getCode() == Status.StatusCode.STATUS_CODE_ERROR,
        s.getStatus().getMessage(),
        List.copyOf(events),
        service);
  }

  private static String hex(ByteString id) {
    return HexFormat.of().formatHex(id.toByteArray());
  }

  /** Attributes as text; a later key of the same name wins, as the SDKs do. */
  static Map<String, String> attributes(List<KeyValue> kvs) {
    Map<String, String> out = new HashMap<>(kvs.size() * 2);
    for (KeyValue kv : kvs) {
      out.put(kv.getKey(), text(kv.getValue()));
    }
    return out;
  }

  private static String text(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> v.getStringValue();
      case BOOL_VALUE -> Boolean.toString(v.getBoolValue());
      case INT_VALUE -> Long.toString(v.getIntValue());
      case DOUBLE_VALUE -> Double.toString(v.getDoubleValue());
      case BYTES_VALUE -> Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray());
      case ARRAY_VALUE, KVLIST_VALUE -> json(v).toString();
      default -> "";
    };
  }

  private static com.fasterxml.jackson.databind.JsonNode json(AnyValue v) {
    return switch (v.getValueCase()) {
      case STRING_VALUE -> JSON.textNode(v.getStringValue());
      case BOOL_VALUE -> JSON.booleanNode(v.getBoolValue());
      case INT_VALUE -> JSON.numberNode(v.getIntValue());
      case DOUBLE_VALUE -> JSON.numberNode(v.getDoubleValue());
      case ARRAY_VALUE -> {
        ArrayNode a = JSON.arrayNode();
        v.getArrayValue().getValuesList().forEach(x -> a.add(json(x)));
        yield a;
      }
      case KVLIST_VALUE -> {
        ObjectNode o = JSON.objectNode();
        v.getKvlistValue().getValuesList().forEach(kv -> o.set(kv.getKey(), json(kv.getValue())));
        yield o;
      }
      case BYTES_VALUE ->
          JSON.textNode(Base64.getEncoder().encodeToString(v.getBytesValue().toByteArray()));
      default -> JSON.nullNode();
    };
  }
}
