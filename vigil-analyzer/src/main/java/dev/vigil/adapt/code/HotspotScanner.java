package dev.vigil.adapt.code;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
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
  private record Rule(Category category, Pattern pattern, String fileMustMention) {}

  private static final List<Rule> RULES = List.of(
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bLocalDateTime\\b"), null),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\b(?:LocalDate|LocalTime)\\s*\\.\\s*(?:parse|now)\\s*\\("),
          null),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bjava\\.util\\.Date\\b|\\bnew\\s+Date\\s*\\("
          + "|\\bSimpleDateFormat\\b|\\bZoneId\\s*\\.\\s*systemDefault\\s*\\(|\\bTimeZone\\s*\\.\\s*getDefault\\s*\\("),
          null),
      new Rule(Category.NAIVE_TIME, Pattern.compile(
          "\\.\\s*(?:toInstant|toEpochSecond)\\s*\\(\\s*(?:java\\.time\\.)?ZoneOffset\\.UTC"),
          null),
      new Rule(Category.NAIVE_TIME, Pattern.compile("\\bDate\\s+[a-z]\\w*\\s*[=;,)]"), "java.util.Date"),
      new Rule(Category.SCHEDULING, Pattern.compile("\\bScheduledExecutorService\\b|\\bTimerTask\\b"
          + "|\\bnew\\s+Timer\\s*\\(|\\bTaskScheduler\\b|@Scheduled\\b"), null),
      new Rule(Category.SCHEDULING, Pattern.compile("\\.\\s*schedule(?:AtFixedRate|WithFixedDelay)?\\s*\\("), null),
      new Rule(Category.REMOTE_CALL, Pattern.compile("\\.\\s*(?:send|sendAsync)\\s*\\("), "HttpClient"),
      new Rule(Category.REMOTE_CALL, Pattern.compile("\\bRestTemplate\\b|\\bWebClient\\b|\\bHttpURLConnection\\b"
          + "|\\.\\s*(?:executeQuery|executeUpdate|executeLargeUpdate)\\s*\\("), null),
      new Rule(Category.CATCH_BLOCK, Pattern.compile("\\bcatch\\s*\\("), null));
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
    int[] ignoredFutureLines = ignoredFutureCalls(repo, js);
    for (int n = 1; n <= js.lineCount(); n++) {
      int start = js.startOfLine(n);
      String masked = js.masked.substring(start, js.lineEnd(start));
      if (HEADER_LINE.matcher(masked).find() || masked.isBlank()) {
        continue;
      }
      EnumSet<Category> categories = EnumSet.noneOf(Category.class);
      for (Rule rule : RULES) {
        if (!categories.contains(rule.category()) && rule.pattern().matcher(masked).find()
            && (rule.fileMustMention() == null || js.masked.contains(rule.fileMustMention()))) {
          categories.add(rule.category());
        }
      }
      if (ReceiptWords.in(masked) || contains(ignoredFutureLines, n)) {
        categories.add(Category.RECEIPT);
      }
      String text = js.line(n).trim();
      text = text.length() > 200 ? text.substring(0, 200) : text;
      for (Category c : categories) {
        found.add(new Hotspot(file.path(), n, c, text));
      }
    }
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

  private static boolean contains(int[] values, int v) {
    for (int x : values) {
      if (x == v) {
        return true;
      }
    }
    return false;
  }
}
