package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Reads OTLP JSON (docs/OPENTELEMETRY.md#traces-in): one {@code ExportTraceServiceRequest}, as the
 * collector's file exporter writes it on each line and as OTLP/HTTP sends it with {@code
 * application/json}. The protocol's JSON differs from protobuf's canonical JSON mapping only in its
 * ids, which are hex rather than base64; they are rewritten, and the rest is read by protobuf's own
 * {@link JsonFormat} into the protocol's generated classes. Fields this version does not know are
 * passed over, as a newer sender may add them.
 */
public final class OtlpJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Set<String> ID_FIELDS =
      Set.of("traceId", "spanId", "parentSpanId", "trace_id", "span_id", "parent_span_id");
  private static final JsonFormat.Parser PARSER = JsonFormat.parser().ignoringUnknownFields();

  private OtlpJson() {}

  /**
   * Decodes one request.
   *
   * @throws OtlpFormatException {@code otlp_not_json} when the bytes are not a JSON object, {@code
   *     otlp_not_traces} when they are not a trace export request
   */
  public static ExportTraceServiceRequest read(byte[] buf, int from, int len)
      throws OtlpFormatException {
    JsonNode tree;
    try {
      tree = MAPPER.readTree(buf, from, len);
    } catch (JacksonException e) {
      throw new OtlpFormatException("otlp_not_json", "not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new OtlpFormatException("otlp_not_json", "not JSON: " + e.getMessage());
    }
    if (tree == null || !tree.isObject()) {
      throw new OtlpFormatException("otlp_not_json", "not a JSON object");
    }
    hexIdsToBase64(tree);
    ExportTraceServiceRequest.Builder b = ExportTraceServiceRequest.newBuilder();
    try {
      PARSER.merge(tree.toString(), b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new OtlpFormatException(
          "otlp_not_traces", "not an OTLP trace export request: " + oneLine(e.getMessage()));
    }
    return b.build();
  }

  /** Rewrites every id field of the tree from the protocol's hex to protobuf's base64. */
  private static void hexIdsToBase64(JsonNode node) throws OtlpFormatException {
    if (node instanceof ObjectNode o) {
      for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        if (ID_FIELDS.contains(e.getKey()) && e.getValue().isTextual()) {
          e.setValue(o.textNode(base64OfHex(e.getKey(), e.getValue().asText())));
        } else {
          hexIdsToBase64(e.getValue());
        }
      }
    } else if (node instanceof ArrayNode a) {
      for (JsonNode child : a) {
        hexIdsToBase64(child);
      }
    }
  }

  private static String base64OfHex(String field, String hex) throws OtlpFormatException {
    try {
      return Base64.getEncoder().encodeToString(HexFormat.of().parseHex(hex));
    } catch (IllegalArgumentException e) {
      throw new OtlpFormatException("otlp_not_traces", field + " is not hex: " + clip(hex));
    }
  }

  private static String clip(String s) {
    return s.length() <= 40 ? s : s.substring(0, 40) + "…";
  }

  private static String oneLine(String s) {
    if (s == null) {
      return "unreadable";
    }
    String line = s.replaceAll("\\s+", " ").trim();
    return line.length() <= 200 ? line : line.substring(0, 200) + "…";
  }
}
