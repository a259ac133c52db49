package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The regex hotspot scanner of the code stage (docs/ADAPTATION.md#code-proposals). It reads each
 * main source of a {@link JavaRepo} line by line, with comments and literal contents masked ({@link
 * MaskedText}), and reports at most one {@link Hotspot} per line and {@link Category}; only the
 * calls whose future is dropped are found in the parsed file. Import and package lines are not
 * hotspots; test sources ({@code src/test/…}) are not scanned.
 *
 * <p>What each category matches:
 *
 * <ul>
 *   <li>naive time: {@code LocalDateTime}, {@code LocalDate}/{@code LocalTime} {@code
 *       .parse}/{@code .now}, {@code java.util.Date}, {@code new Date(}, {@code SimpleDateFormat},
 *       {@code ZoneId.systemDefault()}, {@code TimeZone.getDefault()}, {@code
 *       toInstant(ZoneOffset.UTC)} and {@code toEpochSecond(ZoneOffset.UTC)};
 *   <li>scheduling: {@code ScheduledExecutorService}, {@code .schedule…(}, {@code Timer}, {@code
 *       TimerTask}, {@code TaskScheduler}, {@code @Scheduled};
 *   <li>receipt/confirmation: an identifier with a receipt word ({@link ReceiptWords}), and a call
 *       to a method of the repository that returns a future, made as a statement of its own (its
 *       result ignored);
 *   <li>remote call: {@code HttpClient} {@code send}/{@code sendAsync}, {@code RestTemplate},
 *       {@code WebClient}, {@code HttpURLConnection}, JDBC {@code executeQuery}/{@code
 *       executeUpdate};
 *   <li>catch block: {@code catch (}.
 * </ul>
 */
public final class HotspotScanner {
  /** A pattern, tried only on files that contain one of its hints (plain text, for speed). */
  private record Rule(Category category, Pattern pattern, List<String> hints) {}

  private static final List<Rule> RULES =
      List.of(
          new Rule(
              Category.NAIVE_TIME,
              Pattern.compile("\\bLocalDateTime\\b"),
              List.of("LocalDateTime")),
          new Rule(
              Category.NAIVE_TIME,
              Pattern.compile("\\b(?:LocalDate|LocalTime)\\s*\\.\\s*(?:parse|now)\\s*\\("),
              List.of("LocalDate", "LocalTime")),
          new Rule(
              Category.NAIVE_TIME,
              Pattern.compile(
                  "\\bjava\\.util\\.Date\\b|\\bnew\\s+Date\\s*\\("
                      + "|\\bSimpleDateFormat\\b|\\bZoneId\\s*\\.\\s*systemDefault\\s*\\(|\\bTimeZone\\s*\\.\\s*getDefault\\s*\\("),
              List.of("Date", "systemDefault", "TimeZone")),
          new Rule(
              Category.NAIVE_TIME,
              Pattern.compile(
                  "\\.\\s*(?:toInstant|toEpochSecond)\\s*\\(\\s*(?:java\\.time\\.)?ZoneOffset\\.UTC"),
              List.of("ZoneOffset")),
          new Rule(
              Category.NAIVE_TIME,
              Pattern.compile("\\bDate\\s+[a-z]\\w*\\s*[=;,)]"),
              List.of("java.util.Date")),
          new Rule(
              Category.SCHEDULING,
              Pattern.compile(
                  "\\bScheduledExecutorService\\b|\\bTimerTask\\b"
                      + "|\\bnew\\s+Timer\\s*\\(|\\bTaskScheduler\\b|@Scheduled\\b"),
              List.of("ScheduledExecutorService", "Timer", "TaskScheduler", "Scheduled")),
          new Rule(
              Category.SCHEDULING,
              Pattern.compile("\\.\\s*schedule(?:AtFixedRate|WithFixedDelay)?\\s*\\("),
              List.of("schedule")),
          new Rule(
              Category.REMOTE_CALL,
              Pattern.compile("\\.\\s*(?:send|sendAsync)\\s*\\("),
              List.of("HttpClient")),
          new Rule(
              Category.REMOTE_CALL,
              Pattern.compile(
                  "\\bRestTemplate\\b|\\bWebClient\\b|\\bHttpURLConnection\\b"
                      + "|\\.\\s*(?:executeQuery|executeUpdate|executeLargeUpdate)\\s*\\("),
              List.of("RestTemplate", "WebClient", "HttpURLConnection", "execute")),
          new Rule(Category.CATCH_BLOCK, Pattern.compile("\\bcatch\\s*\\("), List.of("catch")));
  private static final List<String> RECEIPT_HINTS = List.of("receipt", "ack", "confirm", "deliver");
  private static final Pattern HEADER_LINE = Pattern.compile("^\\s*(?:import|package)\\s");

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
    MaskedText js = MaskedText.of(file.content());
    Map<Integer, EnumSet<Category>> lines = new TreeMap<>();
    for (Rule rule : RULES) {
      if (rule.hints().stream().noneMatch(js.masked::contains)) {
        continue;
      }
      Matcher m = rule.pattern().matcher(js.masked);
      while (m.find()) {
        lines
            .computeIfAbsent(js.lineOf(m.start()), n -> EnumSet.noneOf(Category.class))
            .add(rule.category());
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
          lines
              .computeIfAbsent(js.lineOf(start), n -> EnumSet.noneOf(Category.class))
              .add(Category.RECEIPT);
        }
      }
    }
    for (int n : ignoredFutureCalls(repo, file)) {
      lines.computeIfAbsent(n, x -> EnumSet.noneOf(Category.class)).add(Category.RECEIPT);
    }
    lines.forEach(
        (n, categories) -> {
          if (HEADER_LINE.matcher(js.maskedLine(n)).find()) {
            return;
          }
          String text = js.line(n).trim();
          String shown = text.length() > 200 ? text.substring(0, 200) : text;
          categories.forEach(c -> found.add(new Hotspot(file.path(), n, c, shown)));
        });
  }

  /**
   * Lines holding a call, as a statement of its own, to a repository method that returns a future.
   */
  private static List<Integer> ignoredFutureCalls(JavaRepo repo, JavaRepo.SourceFile file) {
    CompilationUnit unit =
        repo.mayCallFutures(file.content()) ? repo.unit(file).orElse(null) : null;
    if (unit == null) {
      return List.of();
    }
    Map<String, String> declaredTypes = Syntax.declaredTypes(unit);
    List<Integer> lines = new ArrayList<>();
    for (MethodCallExpr call : unit.findAll(MethodCallExpr.class)) {
      if (Syntax.isIgnoredCall(call) && repo.futureCall(call, declaredTypes) != null) {
        lines.add(Layout.line(call.getName()));
      }
    }
    return lines;
  }
}
