package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Adds single-type imports to a source, in sorted position among the imports it already has. */
final class Imports {
  private static final Pattern IMPORT = Pattern.compile("(?m)^import\\s+(static\\s+)?([\\w.]+(?:\\.\\*)?)\\s*;");
  private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

  private Imports() {}

  /** True when {@code fqn} is usable by its simple name without a new import. */
  static boolean available(JavaSource js, String fqn) {
    String pkg = fqn.substring(0, fqn.lastIndexOf('.'));
    if (pkg.equals("java.lang")) {
      return true;
    }
    Matcher p = PACKAGE.matcher(js.masked);
    if (p.find() && p.group(1).equals(pkg)) {
      return true;
    }
    Matcher m = IMPORT.matcher(js.masked);
    while (m.find()) {
      if (m.group(1) == null && (m.group(2).equals(fqn) || m.group(2).equals(pkg + ".*"))) {
        return true;
      }
    }
    return false;
  }

  /** Records the edits that import each of {@code fqns} the source does not import yet. */
  static void ensure(JavaSource js, Edits edits, String... fqns) {
    List<int[]> lines = new ArrayList<>();
    List<String> names = new ArrayList<>();
    Matcher m = IMPORT.matcher(js.masked);
    while (m.find()) {
      if (m.group(1) == null) {
        lines.add(new int[] {m.start(), js.lineEnd(m.start())});
        names.add(m.group(2));
      }
    }
    boolean first = true;
    for (String fqn : sortedMissing(js, fqns)) {
      int at = -1;
      for (int i = 0; i < names.size(); i++) {
        if (names.get(i).compareTo(fqn) > 0) {
          at = lines.get(i)[0];
          break;
        }
      }
      if (at >= 0) {
        edits.insert(at, "import " + fqn + ";\n");
      } else if (!lines.isEmpty()) {
        edits.insert(lines.get(lines.size() - 1)[1], "\nimport " + fqn + ";");
      } else {
        Matcher p = PACKAGE.matcher(js.masked);
        if (p.find()) {
          edits.insert(js.lineEnd(p.start()), (first ? "\n\nimport " : "\nimport ") + fqn + ";");
        } else {
          edits.insert(0, "import " + fqn + ";\n");
        }
      }
      first = false;
    }
  }

  /**
   * The source without its single-type import of {@code fqn} when nothing else in it names the type any more (a
   * rewrite may have removed the last use).
   */
  static String dropIfUnused(String source, String fqn) {
    JavaSource js = JavaSource.parse(source);
    String simple = fqn.substring(fqn.lastIndexOf('.') + 1);
    Matcher uses = Pattern.compile("(?<![\\w$.])" + Pattern.quote(simple) + "(?![\\w$])").matcher(js.masked);
    Matcher m = IMPORT.matcher(js.masked);
    while (m.find()) {
      if (m.group(1) == null && m.group(2).equals(fqn)) {
        int count = 0;
        while (uses.find()) {
          count++;
        }
        if (count > 0) {
          return source;
        }
        int end = js.lineEnd(m.start());
        return js.restore(js.text.substring(0, m.start()) + js.text.substring(Math.min(end + 1, js.text.length())));
      }
    }
    return source;
  }

  private static List<String> sortedMissing(JavaSource js, String... fqns) {
    List<String> missing = new ArrayList<>();
    for (String fqn : fqns) {
      if (!available(js, fqn) && !missing.contains(fqn)) {
        missing.add(fqn);
      }
    }
    missing.sort(null);
    return missing;
  }
}
