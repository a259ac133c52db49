package dev.vigil.report;

import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The lines of a unified diff, each with the CSS class that colors it: {@code add}, {@code del},
 * {@code hunk}, {@code meta} (file headers) or {@code ctx}. At most {@value #MAX_LINES} lines are
 * kept.
 */
final class DiffLines {
  /** Lines of one diff shown; a longer diff is cut with a last line saying so. */
  static final int MAX_LINES = 3000;

  /**
   * One line.
   *
   * @param css how it is colored
   * @param text the line
   */
  record Line(String css, String text) {}

  private DiffLines() {}

  /** The lines of a diff file; one line naming the problem when it cannot be read. */
  static List<Line> ofFile(Path diff) {
    try {
      return of(Files.readAllLines(diff, StandardCharsets.UTF_8));
    } catch (IOException | RuntimeException e) {
      return List.of(new Line("meta", "(" + diff + " could not be read: " + e.getMessage() + ")"));
    }
  }

  /** The unified diff of two texts, line by line, with three lines of context. */
  static List<Line> between(
      String oldName, List<String> oldLines, String newName, List<String> newLines) {
    return of(
        UnifiedDiffUtils.generateUnifiedDiff(
            oldName, newName, oldLines, DiffUtils.diff(oldLines, newLines), 3));
  }

  static List<Line> of(List<String> lines) {
    List<Line> out = new ArrayList<>();
    for (String l : lines.subList(0, Math.min(MAX_LINES, lines.size()))) {
      out.add(new Line(css(l), l));
    }
    if (lines.size() > MAX_LINES) {
      out.add(new Line("meta", "… " + (lines.size() - MAX_LINES) + " more lines in the file"));
    }
    return out;
  }

  private static String css(String l) {
    if (l.startsWith("+++")
        || l.startsWith("---")
        || l.startsWith("diff ")
        || l.startsWith("index ")) {
      return "meta";
    }
    if (l.startsWith("@@")) {
      return "hunk";
    }
    if (l.startsWith("+")) {
      return "add";
    }
    return l.startsWith("-") ? "del" : "ctx";
  }
}
