package dev.vigil.adapt.code;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The UTC-aware half of {@link TZReceiptStrategy}: a local date-time pinned to UTC is read in the zone the code
 * already has for it.
 *
 * <ul>
 *   <li>{@code x.toInstant(ZoneOffset.UTC)} and {@code x.toEpochSecond(ZoneOffset.UTC)} (also with
 *       {@code ZoneId.of("UTC")}) become {@code x.atZone(zone).toInstant()} and
 *       {@code x.atZone(zone).toEpochSecond()}, where {@code zone} is a zone in scope ({@link ZoneScope}). Only a
 *       {@code ChronoLocalDateTime} has these one-argument methods, so the receiver is a local time. A receiver
 *       that was itself made in UTC ({@code LocalDateTime.now(ZoneOffset.UTC)}, a {@code Clock}) is left alone.
 *       With no zone in scope nothing is changed and a note says so.
 *   <li>In a method rewritten that way, {@code LocalDate.now()}, {@code LocalTime.now()} and
 *       {@code LocalDateTime.now()} become {@code now(zone)}, and {@code ZoneId.systemDefault()} becomes
 *       {@code zone}: the user's today, not the server's.
 *   <li>Elsewhere, {@code LocalDateTime.now()} used as text (with {@code .toString()} or in a string
 *       concatenation) becomes {@code OffsetDateTime.now(ZoneOffset.UTC)}, a timestamp that carries its offset.
 * </ul>
 */
final class TimeRewriter {
  private static final String UTC =
      "(?:(?:java\\.time\\.)?ZoneOffset\\s*\\.\\s*UTC"
      + "|(?:java\\.time\\.)?ZoneId\\s*\\.\\s*of\\s*\\(\\s*\"(?:UTC|Z|GMT|Etc/UTC)\"\\s*\\))";
  private static final Pattern PINNED =
      Pattern.compile("\\.\\s*(toInstant|toEpochSecond)\\s*\\(\\s*" + UTC + "\\s*\\)");
  private static final Pattern MADE_IN_UTC = Pattern.compile(UTC + "|\\b[Cc]lock\\b");
  private static final Pattern LOCAL_NOW =
      Pattern.compile("\\b(LocalDateTime|LocalDate|LocalTime)\\s*\\.\\s*now\\s*\\(\\s*\\)");
  private static final Pattern SYSTEM_ZONE = Pattern.compile("\\bZoneId\\s*\\.\\s*systemDefault\\s*\\(\\s*\\)");
  private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_$][\\w$]*");

  private final String file;
  private final JavaSource js;
  private final Edits edits;
  private final List<String> changes;
  private final List<String> notes;
  private final Set<Integer> rewrittenMethods = new HashSet<>();

  TimeRewriter(String file, JavaSource js, Edits edits, List<String> changes, List<String> notes) {
    this.file = file;
    this.js = js;
    this.edits = edits;
    this.changes = changes;
    this.notes = notes;
  }

  /** Records the edits; returns how many places changed. */
  int rewrite() {
    int before = changes.size();
    pinnedToUtc();
    localNow();
    systemZone();
    return changes.size() - before;
  }

  private void pinnedToUtc() {
    Matcher m = PINNED.matcher(js.text);
    while (m.find()) {
      int dot = m.start();
      JavaSource.Method method = js.methodAt(dot);
      if (!js.isCode(dot) || method == null) {
        continue;
      }
      int receiverStart = receiverStart(dot);
      String receiver = js.text.substring(receiverStart, dot).trim();
      if (madeInUtc(receiver, method, receiverStart)) {
        continue;
      }
      String zone = ZoneScope.find(js, method, dot);
      int line = js.lineOf(dot);
      String before = receiver + m.group().trim();
      if (zone == null) {
        notes.add(file + ":" + line + ": `" + shorten(before) + "` reads a local time as UTC, but no ZoneId is in"
            + " scope to read it in; left unchanged (give the method the user's zone)");
        continue;
      }
      String replacement = ".atZone(" + zone + ")." + m.group(1) + "()";
      if (edits.replace(dot, m.end(), replacement)) {
        rewrittenMethods.add(method.bodyOpen());
        changes.add(file + ":" + line + ": `" + shorten(before) + "` becomes `" + shorten(receiver + replacement)
            + "`: the local time is read in `" + zone + "`, not as if it were UTC");
      }
    }
  }

  private void localNow() {
    Matcher m = LOCAL_NOW.matcher(js.masked);
    while (m.find()) {
      JavaSource.Method method = js.methodAt(m.start());
      if (method == null) {
        continue;
      }
      int line = js.lineOf(m.start());
      String type = m.group(1);
      if (rewrittenMethods.contains(method.bodyOpen())) {
        String zone = ZoneScope.find(js, method, m.start());
        String replacement = type + ".now(" + zone + ")";
        if (zone != null && edits.replace(m.start(), m.end(), replacement)) {
          changes.add(file + ":" + line + ": `" + type + ".now()` becomes `" + replacement
              + "`: today in the user's zone, not the server's");
        }
      } else if (type.equals("LocalDateTime") && usedAsText(m.start(), m.end())) {
        String replacement = "OffsetDateTime.now(ZoneOffset.UTC)";
        if (edits.replace(m.start(), m.end(), replacement)) {
          Imports.ensure(js, edits, "java.time.OffsetDateTime", "java.time.ZoneOffset");
          changes.add(file + ":" + line + ": `LocalDateTime.now()` becomes `" + replacement
              + "`: the timestamp carries its offset instead of the server's naive local time");
        }
      }
    }
  }

  private void systemZone() {
    Matcher m = SYSTEM_ZONE.matcher(js.masked);
    while (m.find()) {
      JavaSource.Method method = js.methodAt(m.start());
      if (method == null || !rewrittenMethods.contains(method.bodyOpen())) {
        continue;
      }
      String zone = ZoneScope.find(js, method, m.start());
      String head = js.masked.substring(js.lineStart(m.start()), m.start());
      if (zone == null || head.matches("(?s).*\\bZone(?:Id|Offset)\\s+" + Pattern.quote(zone) + "\\s*=.*")) {
        continue;
      }
      if (edits.replace(m.start(), m.end(), zone)) {
        changes.add(file + ":" + js.lineOf(m.start()) + ": `ZoneId.systemDefault()` becomes `" + zone
            + "`: the user's zone, not the server's");
      }
    }
  }

  /** True when the receiver of {@code toInstant(UTC)} was made in UTC on purpose. */
  private boolean madeInUtc(String receiver, JavaSource.Method method, int receiverStart) {
    if (MADE_IN_UTC.matcher(receiver).find()) {
      return true;
    }
    if (!IDENTIFIER.matcher(receiver).matches()) {
      return false;
    }
    Matcher assignment = Pattern.compile("\\b" + Pattern.quote(receiver) + "\\s*=(?!=)([^;]*);")
        .matcher(js.text.substring(method.bodyOpen(), receiverStart));
    String last = null;
    while (assignment.find()) {
      last = assignment.group(1);
    }
    return last != null && MADE_IN_UTC.matcher(last).find();
  }

  /** The start of the expression whose method is called at {@code dot}: an identifier chain with calls. */
  private int receiverStart(int dot) {
    int start = dot;
    int i = js.skipSpaceBack(dot - 1);
    while (i >= 0) {
      char c = js.masked.charAt(i);
      if (c == ')' || c == ']') {
        int open = js.matchBackward(i);
        if (open < 0) {
          break;
        }
        start = open;
        i = js.skipSpaceBack(open - 1);
        if (i < 0 || !Character.isJavaIdentifierPart(js.masked.charAt(i))) {
          break;
        }
        continue;
      }
      if (!Character.isJavaIdentifierPart(c)) {
        break;
      }
      int j = i;
      while (j >= 0 && Character.isJavaIdentifierPart(js.masked.charAt(j))) {
        j--;
      }
      start = j + 1;
      int p = js.skipSpaceBack(j);
      if (p >= 0 && js.masked.charAt(p) == '.') {
        i = js.skipSpaceBack(p - 1);
        continue;
      }
      if (p >= 2 && js.masked.startsWith("new", p - 2) && (p < 3 || !Character.isJavaIdentifierPart(
          js.masked.charAt(p - 3)))) {
        start = p - 2;
      }
      break;
    }
    return start;
  }

  /** True when the expression at {@code [start, end)} is turned into text right away. */
  private boolean usedAsText(int start, int end) {
    int next = js.skipSpace(end);
    int prev = js.skipSpaceBack(start - 1);
    return js.masked.startsWith(".toString()", next) || next < js.masked.length() && js.masked.charAt(next) == '+'
        || prev >= 0 && js.masked.charAt(prev) == '+' && js.masked.charAt(Math.max(0, prev - 1)) != '+';
  }

  static String shorten(String code) {
    String oneLine = code.replaceAll("\\s+", " ");
    return oneLine.length() <= 90 ? oneLine : oneLine.substring(0, 40) + " … " + oneLine.substring(
        oneLine.length() - 45);
  }
}
