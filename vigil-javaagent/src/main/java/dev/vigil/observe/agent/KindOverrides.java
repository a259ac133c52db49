package dev.vigil.observe.agent;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Event kinds renamed by {@code vigil.kinds}: {@code pkg.Class#method=reminder.receipt;...}. Also
 * home of the rule that names a tool call's kind: {@code tool.} and the tool name in lower snake
 * case.
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

  /**
   * The kind of a call to the tool {@code toolName}: {@code tool.} and the name in lower snake
   * case.
   */
  public static String toolKind(String toolName) {
    return "tool." + snakeCase(toolName);
  }

  /**
   * Lower snake case: {@code setReminder} is {@code set_reminder}, {@code getHTTPStatus} is {@code
   * get_http_status}, {@code book_hotel} stays as it is; other characters than letters and digits
   * become {@code _}.
   */
  public static String snakeCase(String name) {
    StringBuilder sb = new StringBuilder(name.length() + 4);
    int n = name.length();
    for (int i = 0; i < n; i++) {
      char c = name.charAt(i);
      if (Character.isUpperCase(c)) {
        char prev = i > 0 ? name.charAt(i - 1) : 0;
        char next = i + 1 < n ? name.charAt(i + 1) : 0;
        boolean wordStart =
            Character.isLowerCase(prev)
                || Character.isDigit(prev)
                || (Character.isUpperCase(prev) && Character.isLowerCase(next));
        if (i > 0 && wordStart) {
          underscore(sb);
        }
        sb.append(Character.toLowerCase(c));
      } else if (Character.isLetterOrDigit(c)) {
        sb.append(Character.toLowerCase(c));
      } else {
        underscore(sb);
      }
    }
    int end = sb.length();
    while (end > 0 && sb.charAt(end - 1) == '_') {
      end--;
    }
    int start = 0;
    while (start < end && sb.charAt(start) == '_') {
      start++;
    }
    String out = sb.substring(start, end);
    return out.isEmpty() ? "unnamed" : out;
  }

  private static void underscore(StringBuilder sb) {
    if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '_') {
      sb.append('_');
    }
  }
}
