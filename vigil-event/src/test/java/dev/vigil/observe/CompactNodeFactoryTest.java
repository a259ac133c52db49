package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Payload trees built by {@link CompactNodeFactory} behave as Jackson's own, whatever their size.
 */
class CompactNodeFactoryTest {
  private static final ObjectMapper PLAIN = new ObjectMapper();
  private static final ObjectMapper COMPACT =
      new ObjectMapper().setNodeFactory(new CompactNodeFactory());

  private static String objectOf(int fields) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < fields; i++) {
      sb.append(i == 0 ? "" : ",").append("\"f").append(fields - i).append("\":").append(i);
    }
    return sb.append("}").toString();
  }

  @Test
  void smallAndLargeObjectsKeepOrderLookUpAndEqualJacksonsTrees() throws Exception {
    for (int fields :
        new int[] {0, 1, 4, 5, SmallObjectMap.LINEAR_MAX, SmallObjectMap.LINEAR_MAX + 1, 200}) {
      String json = "{\"nested\":" + objectOf(fields) + ",\"list\":[1,\"two\",{\"three\":3}]}";
      JsonNode compact = COMPACT.readTree(json);
      JsonNode plain = PLAIN.readTree(json);
      assertEquals(plain, compact, json);
      assertEquals(compact, plain, json);
      assertEquals(plain.hashCode(), compact.hashCode());
      assertEquals(json, COMPACT.writeValueAsString(compact));
      List<String> names = new ArrayList<>();
      compact.get("nested").fieldNames().forEachRemaining(names::add);
      List<String> expected = new ArrayList<>();
      plain.get("nested").fieldNames().forEachRemaining(expected::add);
      assertEquals(expected, names, "insertion order of " + fields + " fields");
      for (int i = 0; i < fields; i++) {
        assertEquals(i, compact.get("nested").get("f" + (fields - i)).intValue());
      }
      assertEquals(null, compact.get("nested").get("absent"));
    }
  }

  @Test
  void aKeyGivenTwiceKeepsItsPlaceWithTheLastValueAsJacksonDoes() throws Exception {
    String json = "{\"a\":1,\"b\":2,\"a\":3}";
    assertEquals(PLAIN.readTree(json), COMPACT.readTree(json));
    assertEquals("{\"a\":3,\"b\":2}", COMPACT.writeValueAsString(COMPACT.readTree(json)));
  }

  @Test
  void fieldsCanBeReplacedAndRemovedThroughTheNodeAndItsIterator() throws Exception {
    for (int fields : new int[] {6, 40}) {
      ObjectNode compact = (ObjectNode) COMPACT.readTree(objectOf(fields));
      ObjectNode plain = (ObjectNode) PLAIN.readTree(objectOf(fields));
      for (ObjectNode n : List.of(compact, plain)) {
        n.remove("f2");
        n.put("f3", "replaced");
        n.put("added", true);
        n.properties().removeIf(e -> e.getKey().equals("f1"));
        for (Map.Entry<String, JsonNode> e : n.properties()) {
          if (e.getKey().equals("f4")) {
            e.setValue(n.textNode("set"));
          }
        }
      }
      assertEquals(PLAIN.writeValueAsString(plain), COMPACT.writeValueAsString(compact));
      assertEquals(plain.size(), compact.size());
    }
  }

  @Test
  void shortRecurringStringsAreOneSharedNodeAndLongOnesAreNot() throws Exception {
    String longText = "x".repeat(CompactNodeFactory.MAX_SHARED_LENGTH + 1);
    JsonNode a = COMPACT.readTree("{\"result\":\"Reminder set\",\"long\":\"" + longText + "\"}");
    JsonNode b = COMPACT.readTree("{\"result\":\"Reminder set\",\"long\":\"" + longText + "\"}");
    assertSame(a.get("result"), b.get("result"));
    assertNotSame(a.get("long"), b.get("long"));
    assertEquals(a.get("long"), b.get("long"));
  }
}
