package dev.vigil.observe.agent;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Event kinds renamed by {@code vigil.kinds}: {@code pkg.Class#method=reminder.receipt;...}. The
 * kind of a call that is not renamed is {@link dev.vigil.observe.ToolKind#of}.
 */
public final class KindOverrides {
  /** No renaming. */
  public static final KindOverrides NONE = new KindOverrides(Map.of());

  private final Map<String, String> byMethod;

  private KindOverrides(Map<String, String> byMethod) {
    this.byMethod = byMethod;
  }

  /**
   * Parses the value of {@code vigil.kinds}.
   *
   * @throws IllegalArgumentException naming the malformed entry
   */
  public static KindOverrides parse(String value) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String raw : value.split(";", -1)) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      String target = eq < 0 ? "" : entry.substring(0, eq).trim();
      String kind = eq < 0 ? "" : entry.substring(eq + 1).trim();
      if (!isTarget(target)) {
        throw new IllegalArgumentException("entry \"" + entry + "\" is not pkg.Class#method=kind");
      }
      if (!isKind(kind)) {
        throw new IllegalArgumentException(
            "entry \"" + entry + "\": a kind is lower-case and dotted, like a.b");
      }
      out.put(target, kind);
    }
    return out.isEmpty() ? NONE : new KindOverrides(Map.copyOf(out));
  }

  /**
   * Whether {@code s} is {@code pkg.Class#method}: a name that may hold dots, {@code #}, a name.
   */
  static boolean isTarget(String s) {
    int hash = s.indexOf('#');
    return hash > 0
        && JavaNames.isName(s, 0, hash, true)
        && JavaNames.isName(s, hash + 1, s.length(), false);
  }

  /** Whether {@code s} is a kind: runs of {@code [a-z0-9_]} joined by single dots. */
  static boolean isKind(String s) {
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '.') {
        if (run == 0) {
          return false;
        }
        run = 0;
      } else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_') {
        run++;
      } else {
        return false;
      }
    }
    return run > 0;
  }

  /** The renamed kind of {@code className#method}, or null. */
  public String kindOf(String className, String method) {
    return byMethod.isEmpty() ? null : byMethod.get(className + "#" + method);
  }
}
