package dev.vigil.observe;

/**
 * The rule that names a tool call's kind (docs/DESIGN.md#the-event): {@code tool.} and the tool
 * name in lower snake case. The agent names its calls by it, and so does the analyzer when it maps
 * another recorder's spans to events (docs/OPENTELEMETRY.md), so that one tool has one kind.
 */
public final class ToolKind {
  private ToolKind() {}

  /**
   * The kind of a call to the tool {@code toolName}: {@code tool.} and the name in lower snake
   * case.
   */
  public static String of(String toolName) {
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
