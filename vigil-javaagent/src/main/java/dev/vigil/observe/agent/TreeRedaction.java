package dev.vigil.observe.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The {@link Redaction} of a JSON tree. Apart from {@link Redaction} so that reading the
 * configuration in {@code premain} loads none of Jackson's classes.
 */
public final class TreeRedaction {
  private TreeRedaction() {}

  /**
   * Redacts a JSON tree in place: secret field names, then patterns in every string; returns the
   * tree.
   */
  // by identity on purpose: a child is set back only when redacting it made a new node
  @SuppressWarnings("ReferenceEquality")
  public static JsonNode apply(Redaction redaction, JsonNode node) {
    if (node instanceof ObjectNode obj) {
      Iterator<Map.Entry<String, JsonNode>> it = obj.properties().iterator();
      List<Map.Entry<String, JsonNode>> replace = new ArrayList<>();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (redaction.isSecretName(e.getKey())) {
          replace.add(Map.entry(e.getKey(), TextNode.valueOf(Redaction.MASK)));
        } else {
          JsonNode child = apply(redaction, e.getValue());
          if (child != e.getValue()) {
            replace.add(Map.entry(e.getKey(), child));
          }
        }
      }
      for (Map.Entry<String, JsonNode> e : replace) {
        obj.set(e.getKey(), e.getValue());
      }
      return obj;
    }
    if (node instanceof ArrayNode arr) {
      for (int i = 0; i < arr.size(); i++) {
        JsonNode child = apply(redaction, arr.get(i));
        if (child != arr.get(i)) {
          arr.set(i, child);
        }
      }
      return arr;
    }
    if (node != null && node.isTextual()) {
      String redacted = redaction.text(node.textValue());
      return redacted.equals(node.textValue()) ? node : TextNode.valueOf(redacted);
    }
    return node;
  }
}
