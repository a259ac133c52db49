package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MethodIncludeTest {
  @Test
  void parsesOpenTelemetrySyntax() {
    List<MethodInclude> list = MethodInclude.parseList(" a.b.C[m1, m2] ; d.E$Inner[*];");
    assertEquals(
        List.of(
            new MethodInclude("a.b.C", Set.of("m1", "m2")),
            new MethodInclude("d.E$Inner", Set.of())),
        list);
    assertTrue(list.get(1).allMethods());
    assertTrue(MethodInclude.parseList("").isEmpty());
  }

  @Test
  void rejectsMalformedEntries() {
    for (String bad : List.of("a.B", "a.B[]", "[m]", "a.B[m-1]", "a.B[*,m]", "1a.B[m]")) {
      assertThrows(IllegalArgumentException.class, () -> MethodInclude.parseList(bad), bad);
    }
  }
}
