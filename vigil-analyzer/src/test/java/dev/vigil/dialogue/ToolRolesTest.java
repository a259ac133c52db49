package dev.vigil.dialogue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A tool's role is that of the verb {@link ToolRoles#verb} reads from its name, whatever the name's
 * characters.
 */
class ToolRolesTest {
  private static final String[] PARTS = {
    "book",
    "Book",
    "BOOK",
    "get",
    "Get",
    "cancel",
    "_",
    "-",
    "order",
    "Order",
    "s",
    "x",
    "İ",
    "ǅ",
    "é",
    "1",
    ".",
    "set",
    "Set",
    "search",
    "ß",
    "K",
    "\uD83D\uDE00",
    "",
    "i",
    "ng"
  };

  private static ToolRoles.Role byVerb(ToolRoles roles, String name) {
    String verb = ToolRoles.verb(name);
    if (roles.writeVerbs().contains(verb)) {
      return ToolRoles.Role.WRITE;
    }
    return roles.readVerbs().contains(verb) ? ToolRoles.Role.READ : ToolRoles.Role.NONE;
  }

  @Test
  void rolesAreThoseOfTheVerbOnVariedNames() {
    ToolRoles custom =
        new ToolRoles(List.of("i", "ǆ", "é", "_", "1"), List.of("kx", "bookorder", "k"), Map.of());
    Random random = new Random(19);
    for (int i = 0; i < 50_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = random.nextInt(4); k >= 0; k--) {
        b.append(PARTS[random.nextInt(PARTS.length)]);
      }
      String name = b.toString();
      assertEquals(byVerb(ToolRoles.DEFAULTS, name), ToolRoles.DEFAULTS.ofTool(name), name);
      assertEquals(byVerb(custom, name), custom.ofTool(name), name);
    }
    assertEquals(ToolRoles.Role.WRITE, ToolRoles.DEFAULTS.ofTool("cancelOrder"));
    assertEquals(ToolRoles.Role.READ, ToolRoles.DEFAULTS.ofTool("Search_flights"));
    assertEquals(ToolRoles.Role.NONE, ToolRoles.DEFAULTS.ofTool("bookkeeping"));
  }
}
