package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Builds a tree from a parser's tokens (JSON or Smile), node for node what the mapper's {@code
 * readTree} builds from them (integers as int, long or big integer by size, decimals as doubles, a
 * repeated name's last value in its first place), without the deserialization context, the
 * deserializer look-up and the container stack that {@code readTree} sets up for each tree: a
 * payload is small, and that set-up was a large part of its reading. A value of another kind (a
 * Smile float of 32 bits, a big decimal, embedded bytes) is read by the mapper's {@code readTree}
 * itself. Nesting is bounded by the parser's own limit, as for {@code readTree}.
 */
final class PayloadTree {
  private PayloadTree() {}

  /** The object whose {@code START_OBJECT} is the parser's current token; ends on its end. */
  static ObjectNode object(JsonParser p, ObjectMapper mapper) throws IOException {
    return object(p, mapper, mapper.getNodeFactory());
  }

  /** The value whose first token is the parser's current token; ends on its last. */
  static JsonNode value(JsonParser p, ObjectMapper mapper) throws IOException {
    return value(p, p.currentToken(), mapper, mapper.getNodeFactory());
  }

  private static ObjectNode object(JsonParser p, ObjectMapper mapper, JsonNodeFactory nodes)
      throws IOException {
    ObjectNode o = nodes.objectNode();
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      o.replace(name, value(p, p.nextToken(), mapper, nodes));
    }
    return o;
  }

  private static ArrayNode array(JsonParser p, ObjectMapper mapper, JsonNodeFactory nodes)
      throws IOException {
    ArrayNode a = nodes.arrayNode();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      a.add(value(p, t, mapper, nodes));
    }
    return a;
  }

  private static JsonNode value(
      JsonParser p, JsonToken t, ObjectMapper mapper, JsonNodeFactory nodes) throws IOException {
    if (t == null) {
      throw new JsonParseException(p, "unexpected end of input in a payload");
    }
    switch (t) {
      case VALUE_STRING:
        return nodes.textNode(p.getText());
      case START_OBJECT:
        return object(p, mapper, nodes);
      case VALUE_NUMBER_INT:
        switch (p.getNumberType()) {
          case INT:
            return nodes.numberNode(p.getIntValue());
          case LONG:
            return nodes.numberNode(p.getLongValue());
          default:
            return nodes.numberNode(p.getBigIntegerValue());
        }
      case VALUE_NUMBER_FLOAT:
        switch (p.getNumberTypeFP()) {
          case DOUBLE64:
          case UNKNOWN:
            return nodes.numberNode(p.getDoubleValue());
          default:
            return mapper.readTree(p);
        }
      case VALUE_TRUE:
        return nodes.booleanNode(true);
      case VALUE_FALSE:
        return nodes.booleanNode(false);
      case VALUE_NULL:
        return nodes.nullNode();
      case START_ARRAY:
        return array(p, mapper, nodes);
      case VALUE_EMBEDDED_OBJECT:
        return mapper.readTree(p);
      default:
        throw new JsonParseException(p, "unexpected token in a payload: " + t);
    }
  }
}
