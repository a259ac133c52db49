package dev.vigil.observe.agent;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One entry of {@code vigil.methods.include}, in the syntax of OpenTelemetry's {@code
 * otel.instrumentation.methods.include}: {@code pkg.Class[m1,m2]}, or {@code pkg.Class[*]} for
 * every method the class declares. Subtypes of the class match too.
 *
 * @param className fully qualified name of the class or interface
 * @param methods method names; empty means every method
 */
public record MethodInclude(String className, Set<String> methods) {
  /** Whether every method of the class is included. */
  public boolean allMethods() {
    return methods.isEmpty();
  }

  /**
   * Parses a whole value: entries separated by {@code ;}.
   *
   * @throws IllegalArgumentException naming the entry that is malformed
   */
  // a method list's trailing commas (Class[a,]) are dropped, as they always were; split(",", -1)
  // would reject them
  @SuppressWarnings("StringSplitter")
  public static List<MethodInclude> parseList(String value) {
    List<MethodInclude> out = new ArrayList<>();
    for (String raw : value.split(";", -1)) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int open = entry.indexOf('[');
      if (open < 0 || !entry.endsWith("]")) {
        throw new IllegalArgumentException(
            "entry \"" + entry + "\" is not Class[method,...] or Class[*]");
      }
      String cls = entry.substring(0, open).trim();
      if (!JavaNames.isQualifiedName(cls)) {
        throw new IllegalArgumentException(
            "entry \"" + entry + "\" does not start with a class name");
      }
      Set<String> methods = new LinkedHashSet<>();
      boolean star = false;
      for (String m : entry.substring(open + 1, entry.length() - 1).split(",")) {
        String name = m.trim();
        if (name.equals("*")) {
          star = true;
        } else if (JavaNames.isName(name)) {
          methods.add(name);
        } else {
          throw new IllegalArgumentException(
              "entry \"" + entry + "\" names no method or has a malformed one");
        }
      }
      if (star && !methods.isEmpty()) {
        throw new IllegalArgumentException("entry \"" + entry + "\" mixes * with method names");
      }
      out.add(new MethodInclude(cls, star ? Set.of() : Set.copyOf(methods)));
    }
    return List.copyOf(out);
  }
}
