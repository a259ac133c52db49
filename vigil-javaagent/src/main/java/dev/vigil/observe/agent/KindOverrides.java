package dev.vigil.observe.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Event kinds renamed by {@code vigil.kinds}: {@code pkg.Class#method=reminder.receipt;...}. The
 * kind of a call that is not renamed is {@link dev.vigil.observe.ToolKind#of}.
 */
public final class KindOverrides {
  /** No renaming. */
  public static final KindOverrides NONE = new KindOverrides(Map.of());

  private static final Pattern KIND = Pattern.compile("[a-z0-9_]+(\\.[a-z0-9_]+)*");
  private static final Pattern TARGET =
      Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$.]*#[\\p{L}_$][\\p{L}\\p{N}_$]*");

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
      if (!TARGET.matcher(target).matches()) {
        throw new IllegalArgumentException("entry \"" + entry + "\" is not pkg.Class#method=kind");
      }
      if (!KIND.matcher(kind).matches()) {
        throw new IllegalArgumentException(
            "entry \"" + entry + "\": a kind is lower-case and dotted, like a.b");
      }
      out.put(target, kind);
    }
    return out.isEmpty() ? NONE : new KindOverrides(Map.copyOf(out));
  }

  /** The renamed kind of {@code className#method}, or null. */
  public String kindOf(String className, String method) {
    return byMethod.isEmpty() ? null : byMethod.get(className + "#" + method);
  }
}
