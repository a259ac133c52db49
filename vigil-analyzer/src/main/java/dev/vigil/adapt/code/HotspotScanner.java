package dev.vigil.adapt.code;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The regex hotspot scanner of SPEC section 4.7. It reads each main source of a {@link JavaRepo} line by line, with
 * comments and literal contents masked, and reports at most one {@link Hotspot} per line and {@link Category}.
 * Import and package lines are not hotspots; test sources ({@code src/test/…}) are not scanned.
 *
 * <p>What each category matches:
 * <ul>
 *   <li>naive time: {@code LocalDateTime}, {@code LocalDate}/{@code LocalTime} {@code .parse}/{@code .now},
 *       {@code java.util.Date}, {@code new Date(}, {@code SimpleDateFormat}, {@code ZoneId.systemDefault()},
 *       {@code TimeZone.getDefault()}, {@code toInstant(ZoneOffset.UTC)} and {@code toEpochSecond(ZoneOffset.UTC)};
 *   <li>scheduling: {@code ScheduledExecutorService}, {@code .schedule…(}, {@code Timer}, {@code TimerTask},
 *       {@code TaskScheduler}, {@code @Scheduled};
 *   <li>receipt/confirmation: an identifier with a receipt word ({@link ReceiptWords}), and a call to a method of
 *       the repository that returns a future, made as a statement of its own (its result ignored);
 *   <li>remote call: {@code HttpClient} {@code send}/{@code sendAsync}, {@code RestTemplate}, {@code WebClient},
 *       {@code HttpURLConnection}, JDBC {@code executeQuery}/{@code executeUpdate};
 *   <li>catch block: {@code catch (}.
 * </ul>
 */
public final class HotspotScanner {
  /** A pattern, tried only on files that contain one of its hints (plain text, for speed). */
  private record Rule(Category category, Pattern pattern, List<String> hints) {}

  private static final List<Rule> RULES = List.of(
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bLocalDateTime\\b"), List.of("LocalDateTime")),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\b(?:LocalDate|LocalTime)\\s*\\.\\s*(?:parse|now)\\s*\\("),
          List.of("LocalDate", "LocalTime")),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bjava\\.util\\.Date\\b|\\bnew\\s+Date\\s*\\("
          + "|\\bSimpleDateFormat\\b|\\bZoneId\\s*\\.\\s*systemDefault\\s*\\(|\\bTimeZone\\s*\\.\\s*getDefault\\s*\\("),
          List.of("Date", "systemDefault", "TimeZone")),
      new Rule(Category.NAIVE_TIME, Pattern.compile(
          "\\.\\s*(?:toInstant|toEpochSecond)\\s*\\(\\s*(?:java\\.time\\.)?ZoneOffset\\.UTC"), List.of("ZoneOffset")),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bDate\\s+[a-z]\\w*\\s*[=;,)]"), List.of("java.util.Date")),
      new Rule(Category.SCHEDULING, Pattern.compile("\\bScheduledExecutorService\\b|\\bTimerTask\\b"
          + "|\\bnew\\s+Timer\\s*\\(|\\bTaskScheduler\\b|@Scheduled\\b"),
          List.of("ScheduledExecutorService", "Timer", "TaskScheduler", "Scheduled")),
      new Rule(Category.SCHEDULING, Pattern.compile("\\.\\s*schedule(?:AtFixedRate|WithFixedDelay)?\\s*\\("),
          List.of("schedule")),
      new Rule(Category.REMOTE_CALL, Pattern.compile("\\.\\s*(?:send|sendAsync)\\s*\\("), List.of("HttpClient")),
      new Rule(Category.REMOTE_CALL, Pattern.compile("\\bRestTemplate\\b|\\bWebClient\\b|\\bHttpURLConnection\\b"
          + "|\\.\\s*(?:executeQuery|executeUpdate|executeLargeUpdate)\\s*\\("),
          List.of("RestTemplate", "WebClient", "HttpURLConnection", "execute")),
      new Rule(Category.CATCH_BLOCK, Pattern.compile("\\bcatch\\s*\\("), List.of("catch")));
  private static final List<String> RECEIPT_HINTS = List.of("receipt", "ack", "confirm", "deliver");
  private static final Pattern CALL = Pattern.compile("\\b([A-Za-z_$][\\w$]*)\\s*\\(");
  private static final Pattern HEADER_LINE = Pattern.compile("^\\s*(?:import|package)\\s");
  private static final Set<String> NOT_STATEMENT_STARTS = Set.of("return", "throw", "var", "yield", "assert");

  private HotspotScanner() {}

  /** Scans the Java sources under {@code root}. */
  public static List<Hotspot> scan(Path root) throws IOException {
    return scan(JavaRepo.scan(root));
  }

  /** Scans a repository already read; hotspots are sorted by file, line and category. */
  public static List<Hotspot> scan(JavaRepo repo) {
    List<Hotspot> found = new ArrayList<>();
    for (JavaRepo.SourceFile file : repo.files()) {
      if (!JavaRepo.isTestSource(file.path())) {
        scanFile(repo, file, found);
      }
    }
    return List.copyOf(found);
  }

  private static void scanFile(JavaRepo repo, JavaRepo.SourceFile file, List<Hotspot> found) {
    JavaSource js = repo.source(file);
    Map<Integer, EnumSet<Category>> lines = new TreeMap<>();
    for (Rule rule : RULES) {
      if (rule.hints().stream().noneMatch(js.masked::contains)) {
        continue;
      }
      Matcher m = rule.pattern().matcher(js.masked);
      while (m.find()) {
        lines.computeIfAbsent(js.lineOf(m.start()), n -> EnumSet.noneOf(Category.class)).add(rule.category());
      }
    }
    char[] lower = js.masked.toCharArray();
    for (int i = 0; i < lower.length; i++) {
      lower[i] = Character.toLowerCase(lower[i]);
    }
    String folded = new String(lower);
    for (String hint : RECEIPT_HINTS) {
      for (int at = folded.indexOf(hint); at >= 0; at = folded.indexOf(hint, at + hint.length())) {
        int start = at;
        while (start > 0 && Character.isJavaIdentifierPart(js.masked.charAt(start - 1))) {
          start--;
        }
        int end = at + hint.length();
        while (end < js.masked.length() && Character.isJavaIdentifierPart(js.masked.charAt(end))) {
          end++;
        }
        if (ReceiptWords.in(js.masked.substring(start, end))) {
          lines.computeIfAbsent(js.lineOf(start), n -> EnumSet.noneOf(Category.class)).add(Category.RECEIPT);
        }
      }
    }
    for (int n : ignoredFutureCalls(repo, js)) {
      lines.computeIfAbsent(n, x -> EnumSet.noneOf(Category.class)).add(Category.RECEIPT);
    }
    lines.forEach((n, categories) -> {
      int start = js.startOfLine(n);
      if (HEADER_LINE.matcher(js.masked.substring(start, js.lineEnd(start))).find()) {
        return;
      }
      String text = js.line(n).trim();
      String shown = text.length() > 200 ? text.substring(0, 200) : text;
      categories.forEach(c -> found.add(new Hotspot(file.path(), n, c, shown)));
    });
  }

  /** Lines holding a call, as a statement of its own, to a repository method that returns a future. */
  private static int[] ignoredFutureCalls(JavaRepo repo, JavaSource js) {
    List<Integer> lines = new ArrayList<>();
    Matcher m = CALL.matcher(js.masked);
    while (m.find()) {
      if (repo.futureCall(js, m.start(1)) != null && isIgnoredCall(js, m.start(1), m.end() - 1)) {
        lines.add(js.lineOf(m.start(1)));
      }
    }
    return lines.stream().mapToInt(Integer::intValue).toArray();
  }

  /** True when the call whose name starts at {@code nameStart} is a whole expression statement. */
  static boolean isIgnoredCall(JavaSource js, int nameStart, int open) {
    int close = js.matchForward(open);
    int[] stmt = close < 0 ? null : js.statementAround(nameStart);
    if (stmt == null || !js.masked.substring(close + 1, stmt[1]).isBlank()) {
      return false;
    }
    String head = js.masked.substring(stmt[0], nameStart);
    if (!head.matches("(?s)[\\w$.\\s()]*") || head.contains("=")) {
      return false;
    }
    String first = js.masked.substring(stmt[0], stmt[1]).trim().split("[^\\w$]", 2)[0];
    if (NOT_STATEMENT_STARTS.contains(first)) {
      return false;
    }
    int before = js.skipSpaceBack(nameStart - 1);
    boolean declaration = before >= 0 && (Character.isJavaIdentifierPart(js.masked.charAt(before))
        || js.masked.charAt(before) == '>');
    return !declaration && js.methodAt(nameStart) != null;
  }
}
