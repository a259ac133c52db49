package dev.vigil.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds payload trees that take little heap: objects keep their fields in a {@link SmallObjectMap}
 * (an event's payload objects have a handful of fields, and a Jackson object's default map costs an
 * entry object per field plus a sixteen-slot table), arrays start small, and short strings that
 * recur (class names, results such as {@code "Reminder set"}, thread names) are one shared {@link
 * TextNode} each, from a table that stops growing at {@value #MAX_SHARED} strings. Field order and
 * every other behaviour are Jackson's; text nodes are immutable, so sharing them is safe.
 */
final class CompactNodeFactory extends JsonNodeFactory {
  private static final long serialVersionUID = 1L;

  /** Fields or elements a new container reserves room for. */
  static final int INITIAL = 4;

  /** The longest string shared. */
  static final int MAX_SHARED_LENGTH = 48;

  /** The most strings the table holds. */
  static final int MAX_SHARED = 16_384;

  private static final ConcurrentHashMap<String, TextNode> SHARED = new ConcurrentHashMap<>();

  @Override
  public ObjectNode objectNode() {
    return new ObjectNode(this, new SmallObjectMap(INITIAL));
  }

  @Override
  public TextNode textNode(String text) {
    if (text == null || text.length() > MAX_SHARED_LENGTH) {
      return super.textNode(text);
    }
    TextNode shared = SHARED.get(text);
    if (shared != null) {
      return shared;
    }
    TextNode node = super.textNode(text);
    if (SHARED.size() < MAX_SHARED) {
      shared = SHARED.putIfAbsent(text, node);
    }
    return shared != null ? shared : node;
  }

  @Override
  public ArrayNode arrayNode() {
    return new ArrayNode(this, new ArrayList<JsonNode>(INITIAL));
  }
}
