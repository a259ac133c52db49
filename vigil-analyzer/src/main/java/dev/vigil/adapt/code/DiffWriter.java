package dev.vigil.adapt.code;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import com.github.difflib.patch.Patch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Unified diffs in git's style, made with java-diff-utils: per file a {@code diff --git a/p b/p}
 * line, {@code --- a/p} and {@code +++ b/p}, and hunks with 3 lines of context. A file whose last
 * line has no line break gets git's {@code \ No newline at end of file} marker after that line,
 * which java-diff-utils does not write.
 */
public final class DiffWriter {
  /** Lines of context around each change. */
  public static final int CONTEXT = 3;

  private static final Pattern HUNK =
      Pattern.compile("^@@ -(\\d+)(?:,(\\d+))? \\+(\\d+)(?:,(\\d+))? @@");
  private static final String NO_NEWLINE = "\\ No newline at end of file";

  private DiffWriter() {}

  /** The diff of one file, {@code path} relative to the repository; empty when nothing changed. */
  public static String of(String path, String original, String revised) {
    List<String> o = lines(original);
    List<String> r = lines(revised);
    Patch<String> patch = DiffUtils.diff(o, r);
    if (patch.getDeltas().isEmpty()) {
      return "";
    }
    List<String> unified =
        UnifiedDiffUtils.generateUnifiedDiff("a/" + path, "b/" + path, o, patch, CONTEXT);
    boolean oOpen = !original.isEmpty() && !original.endsWith("\n");
    boolean rOpen = !revised.isEmpty() && !revised.endsWith("\n");
    StringBuilder out =
        new StringBuilder("diff --git a/").append(path).append(" b/").append(path).append('\n');
    int oLine = 0;
    int rLine = 0;
    for (String line : unified) {
      out.append(line).append('\n');
      Matcher h = HUNK.matcher(line);
      if (h.find()) {
        oLine =
            Integer.parseInt(h.group(1)) - (h.group(2) != null && h.group(2).equals("0") ? 0 : 1);
        rLine =
            Integer.parseInt(h.group(3)) - (h.group(4) != null && h.group(4).equals("0") ? 0 : 1);
        continue;
      }
      if (line.startsWith("--- ") || line.startsWith("+++ ") || line.isEmpty()) {
        continue;
      }
      char kind = line.charAt(0);
      boolean lastOriginal = false;
      boolean lastRevised = false;
      if (kind == ' ' || kind == '-') {
        lastOriginal = ++oLine == o.size() && oOpen;
      }
      if (kind == ' ' || kind == '+') {
        lastRevised = ++rLine == r.size() && rOpen;
      }
      if (lastOriginal || lastRevised) {
        out.append(NO_NEWLINE).append('\n');
      }
    }
    return out.toString();
  }

  /** The lines of a text split at {@code \n} (a {@code \r} before it stays part of the line). */
  static List<String> lines(String text) {
    if (text.isEmpty()) {
      return List.of();
    }
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    if (text.endsWith("\n")) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }
}
