package dev.vigil.adapt.code;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the time zone a piece of code already knows: a {@code ZoneId} (or {@code ZoneOffset}) parameter of the
 * enclosing method, a local declared before the position, a record component, or a field of an enclosing type (a
 * static one from a static method or an outer type). The nearest wins.
 */
final class ZoneScope {
  private static final Pattern PARAM = Pattern.compile("\\bZone(?:Id|Offset)\\s+([A-Za-z_$][\\w$]*)\\s*(?=[,)])");
  private static final Pattern LOCAL = Pattern.compile("\\bZone(?:Id|Offset)\\s+([A-Za-z_$][\\w$]*)\\s*=(?!=)");
  private static final Pattern FIELD = Pattern.compile("\\bZone(?:Id|Offset)\\s+([A-Za-z_$][\\w$]*)\\s*(?=[=;])");

  private ZoneScope() {}

  /** The name of a zone in scope at {@code pos}, or null. */
  static String find(JavaSource js, JavaSource.Method m, int pos) {
    if (m != null) {
      Matcher p = PARAM.matcher(js.masked.substring(m.paramsOpen() + 1, m.paramsClose()) + ")");
      if (p.find()) {
        return p.group(1);
      }
      Matcher l = LOCAL.matcher(js.masked.substring(m.bodyOpen() + 1, pos));
      String last = null;
      while (l.find()) {
        last = l.group(1);
      }
      if (last != null) {
        return last;
      }
    }
    boolean onlyStatic = m != null && m.isStatic();
    for (JavaSource.TypeDecl t : js.typesAt(pos)) {
      if (t.kind().equals("record") && !onlyStatic) {
        Matcher c = PARAM.matcher(js.masked.substring(t.headerStart(), t.bodyOpen()));
        if (c.find()) {
          return c.group(1);
        }
      }
      Matcher f = FIELD.matcher(js.masked);
      f.region(t.bodyOpen() + 1, t.bodyClose());
      while (f.find()) {
        int q = f.start();
        if (js.methodAt(q) != null || !js.typesAt(q).get(0).equals(t)) {
          continue;
        }
        boolean isStatic = declarationHead(js, q).matches("(?s).*\\bstatic\\b.*");
        if (isStatic || !onlyStatic) {
          return f.group(1);
        }
      }
      onlyStatic = true;
    }
    return null;
  }

  /** The modifiers and annotations before a member declaration at {@code pos}. */
  private static String declarationHead(JavaSource js, int pos) {
    int i = pos - 1;
    while (i >= 0 && ";{}".indexOf(js.masked.charAt(i)) < 0) {
      i--;
    }
    return js.masked.substring(i + 1, pos);
  }
}
