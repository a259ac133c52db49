package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Writes a JSON tree through a {@link SmileOut}, node by node as Jackson's generator would; and,
 * for the values {@link SmileOut} does not encode itself (big integers, big decimals, binary, which
 * captured values seldom hold), the bytes Jackson's own generator writes for them.
 */
final class SmileTree {
  /**
   * Jackson's generator for the rare values; no header, no back-references, as {@link SmileOut}
   * writes.
   */
  private static final class Jackson {
    static final SmileFactory FACTORY =
        SmileFactory.builder()
            .disable(SmileGenerator.Feature.WRITE_HEADER)
            .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
            .build();
  }

  /** One value written by a Jackson generator. */
  interface Write {
    void to(JsonGenerator g) throws IOException;
  }

  private SmileTree() {}

  static void write(JsonNode node, SmileOut out) {
    switch (node.getNodeType()) {
      case OBJECT -> {
        out.startObject();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
          out.name(e.getKey());
          write(e.getValue(), out);
        }
        out.endObject();
      }
      case ARRAY -> {
        out.startArray();
        for (JsonNode child : node) {
          write(child, out);
        }
        out.endArray();
      }
      case STRING -> out.string(node.textValue());
      case BOOLEAN -> out.bool(node.booleanValue());
      case NUMBER -> number(node, out);
      case NULL, MISSING -> out.nullValue();
      case BINARY -> out.raw(byJackson(g -> g.writeBinary(node.binaryValue())));
      default -> out.string(node.toString());
    }
  }

  private static void number(JsonNode node, SmileOut out) {
    switch (node.numberType()) {
      case INT -> out.number(node.intValue());
      case LONG -> out.number(node.longValue());
      case FLOAT -> out.number(node.floatValue());
      case DOUBLE -> out.number(node.doubleValue());
      case BIG_INTEGER -> out.number(node.bigIntegerValue());
      default -> out.number(node.decimalValue());
    }
  }

  /** The bytes of one value as Jackson's Smile generator writes it. */
  static byte[] byJackson(Write write) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (JsonGenerator g = Jackson.FACTORY.createGenerator(bytes)) {
      write.to(g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}
