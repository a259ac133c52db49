package dev.vigil.adapt.prompt;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Where the marked sections of a prompt are, as byte offsets into the file
 * (docs/ADAPTATION.md#prompt-adaptation).
 *
 * <p>A valid prompt has exactly one core block and exactly one adaptive section, each opened before
 * it is closed, one after the other in either order. Text may stand before, between and after them.
 *
 * @param coreStart first byte of the {@code ## BEGIN_CORE_IDENTITY} line
 * @param coreEnd end of the {@code ## END_CORE_IDENTITY} line, its terminator included
 * @param adaptiveStart first byte of the adaptive content: just after the {@code ##
 *     BEGIN_ADAPTIVE_SECTION} line's terminator
 * @param adaptiveEnd end of the adaptive content: the first byte of the {@code ##
 *     END_ADAPTIVE_SECTION} line
 * @param lineEnding the terminator of the {@code ## BEGIN_ADAPTIVE_SECTION} line; new content uses
 *     it
 * @param coreBeginLine line number (from 1) of {@code ## BEGIN_CORE_IDENTITY}
 * @param coreEndLine line number of {@code ## END_CORE_IDENTITY}
 * @param adaptiveBeginLine line number of {@code ## BEGIN_ADAPTIVE_SECTION}
 * @param adaptiveEndLine line number of {@code ## END_ADAPTIVE_SECTION}
 */
record PromptLayout(
    int coreStart,
    int coreEnd,
    int adaptiveStart,
    int adaptiveEnd,
    LineEnding lineEnding,
    int coreBeginLine,
    int coreEndLine,
    int adaptiveBeginLine,
    int adaptiveEndLine) {

  /**
   * Finds the sections of a prompt.
   *
   * @param name how messages name the prompt (its path)
   * @param bytes the file's bytes
   * @throws PromptRefusedException when the bytes are not UTF-8 or the markers do not delimit one
   *     core block and one adaptive section
   */
  public static PromptLayout parse(String name, byte[] bytes) throws PromptRefusedException {
    List<Line> lines = Line.split(bytes);
    requireUtf8(name, bytes, lines);
    Map<Marker, List<Line>> found = findMarkers(name, bytes, lines);
    requireOnePairEach(name, found);
    Line coreBegin = found.get(Marker.BEGIN_CORE).get(0);
    Line coreEnd = found.get(Marker.END_CORE).get(0);
    Line adaptiveBegin = found.get(Marker.BEGIN_ADAPTIVE).get(0);
    Line adaptiveEnd = found.get(Marker.END_ADAPTIVE).get(0);
    requireApart(name, coreBegin, coreEnd, adaptiveBegin, adaptiveEnd);
    return new PromptLayout(
        coreBegin.start(),
        coreEnd.end(),
        adaptiveBegin.end(),
        adaptiveEnd.start(),
        adaptiveBegin.ending(bytes),
        coreBegin.number(),
        coreEnd.number(),
        adaptiveBegin.number(),
        adaptiveEnd.number());
  }

  /** Refuses a prompt that is not valid UTF-8, naming the first bad byte and its line. */
  private static void requireUtf8(String name, byte[] bytes, List<Line> lines)
      throws PromptRefusedException {
    int bad = StrictUtf8.firstInvalidByte(bytes);
    if (bad >= 0) {
      throw new PromptRefusedException(
          RefusalReason.NOT_UTF8,
          String.format(
              Locale.ROOT,
              "prompt %s is not valid UTF-8: byte 0x%02X at offset %d (line %d); save the file as UTF-8",
              name,
              bytes[bad] & 0xFF,
              bad,
              lineAt(lines, bad)));
    }
  }

  /**
   * The lines of each marker, in file order.
   *
   * @throws PromptRefusedException when there is no marker at all
   */
  private static Map<Marker, List<Line>> findMarkers(String name, byte[] bytes, List<Line> lines)
      throws PromptRefusedException {
    Map<Marker, List<Line>> found = new EnumMap<>(Marker.class);
    for (Marker m : Marker.values()) {
      found.put(m, new ArrayList<>());
    }
    for (Line line : lines) {
      Marker m = line.marker(bytes);
      if (m != null) {
        found.get(m).add(line);
      }
    }
    if (found.values().stream().allMatch(List::isEmpty)) {
      throw new PromptRefusedException(
          RefusalReason.MARKERS_MISSING,
          "prompt "
              + name
              + " has none of the markers "
              + Arrays.stream(Marker.values()).map(Marker::text).collect(Collectors.joining(", "))
              + " on a line of its own; put the core identity between the first two and the part Vigil may rewrite "
              + "between the last two");
    }
    return found;
  }

  /** Refuses a prompt without exactly one balanced core block and one adaptive section. */
  private static void requireOnePairEach(String name, Map<Marker, List<Line>> found)
      throws PromptRefusedException {
    List<Problem> problems = new ArrayList<>();
    checkPair(
        found,
        Marker.BEGIN_CORE,
        Marker.END_CORE,
        "core block",
        RefusalReason.CORE_MISSING,
        RefusalReason.CORE_TWICE,
        RefusalReason.CORE_UNBALANCED,
        problems);
    checkPair(
        found,
        Marker.BEGIN_ADAPTIVE,
        Marker.END_ADAPTIVE,
        "adaptive section",
        RefusalReason.ADAPTIVE_MISSING,
        RefusalReason.ADAPTIVE_TWICE,
        RefusalReason.ADAPTIVE_UNBALANCED,
        problems);
    if (!problems.isEmpty()) {
      throw new PromptRefusedException(
          problems.get(0).reason(),
          "prompt "
              + name
              + ": "
              + problems.stream().map(Problem::text).collect(Collectors.joining("; ")));
    }
  }

  /** Refuses a prompt whose core block and adaptive section overlap. */
  private static void requireApart(
      String name, Line coreBegin, Line coreEnd, Line adaptiveBegin, Line adaptiveEnd)
      throws PromptRefusedException {
    if (!(coreEnd.number() < adaptiveBegin.number() || adaptiveEnd.number() < coreBegin.number())) {
      throw new PromptRefusedException(
          RefusalReason.SECTIONS_OVERLAP,
          "prompt "
              + name
              + ": the adaptive section (lines "
              + adaptiveBegin.number()
              + "-"
              + adaptiveEnd.number()
              + ") and the core block (lines "
              + coreBegin.number()
              + "-"
              + coreEnd.number()
              + ") overlap; put one after the other");
    }
  }

  private static void checkPair(
      Map<Marker, List<Line>> found,
      Marker begin,
      Marker end,
      String what,
      RefusalReason missing,
      RefusalReason twice,
      RefusalReason unbalanced,
      List<Problem> problems) {
    List<Line> b = found.get(begin);
    List<Line> e = found.get(end);
    if (b.isEmpty() && e.isEmpty()) {
      problems.add(
          new Problem(
              missing,
              "no "
                  + what
                  + " (no line "
                  + begin.text()
                  + " and no line "
                  + end.text()
                  + "); add both markers, each on a line of its own"));
    } else if (b.size() > 1 || e.size() > 1) {
      problems.add(
          new Problem(
              twice,
              "the "
                  + what
                  + " appears "
                  + Math.max(b.size(), e.size())
                  + " times ("
                  + begin.text()
                  + " "
                  + where(b)
                  + ", "
                  + end.text()
                  + " "
                  + where(e)
                  + "); keep exactly one"));
    } else {
      Problem p = orderProblem(begin, end, what, unbalanced, b, e);
      if (p != null) {
        problems.add(p);
      }
    }
  }

  /**
   * What is wrong with the order of a pair whose markers each appear at most once, not both
   * missing.
   *
   * @return the problem, or null when the begin marker comes first
   */
  private static Problem orderProblem(
      Marker begin, Marker end, String what, RefusalReason unbalanced, List<Line> b, List<Line> e) {
    if (e.isEmpty()) {
      return new Problem(
          unbalanced,
          begin.text()
              + " on line "
              + b.get(0).number()
              + " has no "
              + end.text()
              + " after it; close the "
              + what);
    } else if (b.isEmpty()) {
      return new Problem(
          unbalanced,
          end.text()
              + " on line "
              + e.get(0).number()
              + " has no "
              + begin.text()
              + " before it; open the "
              + what);
    } else if (e.get(0).number() < b.get(0).number()) {
      return new Problem(
          unbalanced,
          end.text()
              + " on line "
              + e.get(0).number()
              + " comes before "
              + begin.text()
              + " on line "
              + b.get(0).number()
              + "; swap them");
    }
    return null;
  }

  /** One thing wrong with the markers; all of them go into the refusal's message. */
  private record Problem(RefusalReason reason, String text) {}

  private static String where(List<Line> lines) {
    if (lines.isEmpty()) {
      return "on no line";
    }
    return (lines.size() == 1 ? "on line " : "on lines ")
        + lines.stream().map(l -> Integer.toString(l.number())).collect(Collectors.joining(", "));
  }

  private static int lineAt(List<Line> lines, int offset) {
    for (Line l : lines) {
      if (offset < l.end()) {
        return l.number();
      }
    }
    return lines.size();
  }

  /** True when the core block comes before the adaptive section. */
  public boolean coreFirst() {
    return coreEnd <= adaptiveStart;
  }

  /** The core block of {@code prompt}, markers and the closing marker's terminator included. */
  public byte[] core(byte[] prompt) {
    return Arrays.copyOfRange(prompt, coreStart, coreEnd);
  }

  /** The adaptive section's content of {@code prompt}: the bytes between its two marker lines. */
  public byte[] adaptiveContent(byte[] prompt) {
    return Arrays.copyOfRange(prompt, adaptiveStart, adaptiveEnd);
  }
}
