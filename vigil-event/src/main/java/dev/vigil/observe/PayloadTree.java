package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Builds a JSON object's tree from a parser's tokens, node for node what the default mapper's
 * {@code readTree} builds (integers as int, long or big integer by size, decimals as doubles, a
 * repeated name's last value in its first place), without the deserialization context, the
 * deserializer look-up and the container stack that {@code readTree} sets up for each tree: a
 * payload is small, and that set-up was a large part of its reading. Nesting is bounded by the
 * parser's own limit, as for {@code readTree}.
 */
final class PayloadTree {
  private PayloadTree() {}

  /** The object whose {@code START_OBJECT} is the parser's current token; ends on its end. */
  static ObjectNode object(JsonParser p, JsonNodeFactory nodes) throws IOException {
    ObjectNode o = nodes.objectNode();
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      o.replace(name, value(p, p.nextToken(), nodes));
    }
    return o;
  }

  private static ArrayNode array(JsonParser p, JsonNodeFactory nodes) throws IOException {
    ArrayNode a = nodes.arrayNode();
    for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
      a.add(value(p, t, nodes));
    }
    return a;
  }

  private static JsonNode value(JsonParser p, JsonToken t, JsonNodeFactory nodes)
      throws IOException {
    if (t == null) {
      throw new JsonParseException(p, "unexpected end of input in a payload");
    }
    switch (t) {
      case VALUE_STRING:
        return nodes.textNode(p.getText());
      case START_OBJECT:
        return object(p, nodes);
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
        return nodes.numberNode(p.getDoubleValue());
      case VALUE_TRUE:
        return nodes.booleanNode(true);
      case VALUE_FALSE:
        return nodes.booleanNode(false);
      case VALUE_NULL:
        return nodes.nullNode();
      case START_ARRAY:
        return array(p, nodes);
      default:
        throw new JsonParseException(p, "unexpected token in a payload: " + t);
    }
  }
}
