package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rewrite of {@link RetryErrorsStrategy}: each statement holding a remote call is wrapped in a loop of at most
 * three attempts with jittered exponential backoff (100-200 ms, then 200-400 ms), and the few helpers the loop needs
 * are added at the end of the outermost class, so the patched file compiles on its own with no new dependency.
 *
 * <p>Remote calls are recognized by the declared type of their receiver in the same file:
 * <ul>
 *   <li>{@code HttpClient x} and {@code x.send(...)}: an {@link java.io.IOException} or a response with status
 *       429, 502, 503 or 504 is retried (the last response is kept when every attempt answers one of those);
 *   <li>{@code Statement}/{@code PreparedStatement}/{@code CallableStatement x} and {@code x.executeQuery(...)},
 *       {@code executeUpdate}, {@code executeLargeUpdate}: a {@code SQLTransientException} or
 *       {@code SQLRecoverableException} is retried;
 *   <li>{@code RestTemplate x} and its {@code getForObject}, {@code exchange}, …, and {@code WebClient x} chains
 *       ending in {@code block()}: a runtime exception whose cause chain holds an I/O error, a timeout, or a type
 *       named like {@code *Timeout*}, {@code *Transient*}, {@code ResourceAccess*}, {@code *ServerError*},
 *       {@code *Unavailable*} is retried.
 * </ul>
 * The statement may be a declaration ({@code T v = …;}, split so that {@code v} stays in scope; {@code var} only
 * where the type is known), an assignment, a {@code return} or an expression statement. Statements in lambdas,
 * conditions or resources, statements sharing a line, methods that already speak of retries or backoff, and
 * interfaces are left alone with a note.
 */
final class RetryRewriter {
  /** The constant and helper names the rewrite adds; a file that already has one is left alone. */
  static final List<String> ADDED_NAMES =
      List.of("RETRY_MAX_ATTEMPTS", "backoffBeforeRetry", "isTransientStatus", "isTransient", "isTransientFailure");

  private enum Kind {
    HTTP("IOException", "an I/O error or a 429/502/503/504 answer"),
    JDBC("SQLException", "a transient SQL failure"),
    SPRING("RuntimeException", "a timeout or an unavailable server");

    final String caught;
    final String retriedOn;

    Kind(String caught, String retriedOn) {
      this.caught = caught;
      this.retriedOn = retriedOn;
    }
  }

  private record Call(Kind kind, int start, int end) {}

  private static final Pattern HTTP_SEND = Pattern.compile("\\b([A-Za-z_$][\\w$]*)\\s*\\.\\s*send\\s*\\(");
  private static final Pattern JDBC = Pattern.compile(
      "\\b([A-Za-z_$][\\w$]*)\\s*\\.\\s*(?:executeQuery|executeUpdate|executeLargeUpdate)\\s*\\(");
  private static final Pattern REST = Pattern.compile("\\b([A-Za-z_$][\\w$]*)\\s*\\.\\s*(?:getForObject|getForEntity"
      + "|postForObject|postForEntity|postForLocation|exchange|put|delete|patchForObject|execute)\\s*\\(");
  private static final Pattern WEB = Pattern.compile("\\b([A-Za-z_$][\\w$]*)\\s*\\.\\s*[A-Za-z_$][\\w$]*\\s*\\(");
  private static final Pattern BLOCK = Pattern.compile("\\.\\s*block\\s*\\(");
  private static final Pattern DECL = Pattern.compile(
      "(?:final\\s+)?([A-Za-z_$][\\w$.]*(?:\\s*<[^=;]*>)?(?:\\s*\\[\\s*\\])*)\\s+([A-Za-z_$][\\w$]*)\\s*=(?!=)");
  private static final Pattern ASSIGN = Pattern.compile("([A-Za-z_$][\\w$.]*)\\s*=(?!=)");
  private static final Pattern RETRY_WORDS = Pattern.compile("(?i)retr(?:y|ies|ied)|attempt|backoff|back_off");
  private static final Set<String> STATEMENT_KEYWORDS = Set.of("if", "else", "for", "while", "do", "switch",
      "case", "default", "throw", "try", "synchronized", "yield", "assert", "new", "return");

  private final String file;
  private final JavaSource js;
  private final Edits edits;
  private final List<String> changes;
  private final List<String> notes;

  RetryRewriter(String file, JavaSource js, Edits edits, List<String> changes, List<String> notes) {
    this.file = file;
    this.js = js;
    this.edits = edits;
    this.changes = changes;
    this.notes = notes;
  }

  /** Records the edits; returns how many statements were wrapped. */
  int rewrite() {
    List<Call> calls = calls();
    if (calls.isEmpty()) {
      return 0;
    }
    for (String name : ADDED_NAMES) {
      if (Pattern.compile("\\b" + name + "\\b").matcher(js.masked).find()) {
        notes.add(file + ": already declares `" + name + "`; left unchanged");
        return 0;
      }
    }
    Map<JavaSource.TypeDecl, Set<Kind>> helpers = new LinkedHashMap<>();
    Set<Integer> wrapped = new LinkedHashSet<>();
    for (Call call : calls) {
      int line = js.lineOf(call.start());
      String callText = TimeRewriter.shorten(js.text.substring(call.start(), call.end()));
      JavaSource.Method m = js.methodAt(call.start());
      int[] stmt = js.statementAround(call.start());
      if (m == null || stmt == null || wrapped.contains(stmt[0])) {
        if (stmt == null || m == null) {
          notes.add(file + ":" + line + ": `" + callText + "` is not a plain statement of a method body; left"
              + " unchanged");
        }
        continue;
      }
      String why = refusal(m, stmt);
      List<JavaSource.TypeDecl> types = js.typesAt(call.start());
      JavaSource.TypeDecl outer = types.isEmpty() ? null : types.get(types.size() - 1);
      if (why == null && (outer == null || outer.kind().equals("interface"))) {
        why = "sits in an interface, which cannot hold the retry constant";
      }
      String block = why == null ? loop(call, m, stmt) : null;
      if (why == null && block == null) {
        why = "is declared with `var` and a type Vigil cannot name";
      }
      if (why != null) {
        notes.add(file + ":" + line + ": `" + callText + "` " + why + "; left unchanged");
        continue;
      }
      if (edits.replace(stmt[0], stmt[1] + 1, block)) {
        wrapped.add(stmt[0]);
        helpers.computeIfAbsent(outer, t -> new LinkedHashSet<>()).add(call.kind());
        changes.add(file + ":" + line + ": `" + callText + "` is retried up to 3 times on " + call.kind().retriedOn
            + ", waiting 100-200 ms before the second attempt and 200-400 ms before the third (exponential backoff"
            + " with jitter)");
      }
    }
    helpers.forEach(this::addHelpers);
    return wrapped.size();
  }

  private List<Call> calls() {
    List<Call> found = new ArrayList<>();
    find(HTTP_SEND, Set.of("HttpClient"), Kind.HTTP, found);
    find(JDBC, Set.of("PreparedStatement", "CallableStatement", "Statement"), Kind.JDBC, found);
    find(REST, Set.of("RestTemplate"), Kind.SPRING, found);
    Matcher web = WEB.matcher(js.masked);
    while (js.masked.contains("WebClient") && web.find()) {
      if (js.declaredType(web.group(1)).equals("WebClient")) {
        int[] stmt = js.statementAround(web.start());
        Matcher block = BLOCK.matcher(js.masked);
        if (stmt != null && block.region(web.start(), stmt[1]).find()) {
          int close = js.matchForward(block.end() - 1);
          found.add(new Call(Kind.SPRING, web.start(), close + 1));
        }
      }
    }
    found.sort((a, b) -> Integer.compare(a.start(), b.start()));
    return found;
  }

  private void find(Pattern pattern, Set<String> receiverTypes, Kind kind, List<Call> found) {
    if (receiverTypes.stream().noneMatch(js.masked::contains)) {
      return;
    }
    Matcher m = pattern.matcher(js.masked);
    while (m.find()) {
      if (receiverTypes.contains(js.declaredType(m.group(1)))) {
        int close = js.matchForward(m.end() - 1);
        if (close > 0) {
          found.add(new Call(kind, m.start(), close + 1));
        }
      }
    }
  }

  /** Why a statement is left alone, or null. */
  private String refusal(JavaSource.Method m, int[] stmt) {
    String first = js.masked.substring(stmt[0], stmt[1]).trim().split("[^\\w$]", 2)[0];
    if (STATEMENT_KEYWORDS.contains(first) && !first.equals("return")) {
      return "is part of a `" + first + "` statement";
    }
    if (!js.directlyIn(m, stmt[0])) {
      return "sits in a lambda or an anonymous class";
    }
    if (!js.startsLine(stmt[0]) || !js.endsLine(stmt[1])) {
      return "shares its line with other code";
    }
    if (RETRY_WORDS.matcher(js.masked.substring(m.headerStart(), m.bodyClose())).find()) {
      return "is in `" + m.name() + "`, which already speaks of retries";
    }
    return null;
  }

  /** The loop replacing {@code stmt}, or null when a {@code var} declaration's type cannot be named. */
  private String loop(Call call, JavaSource.Method m, int[] stmt) {
    String indent = js.indentAt(stmt[0]);
    String unit = js.indentUnit();
    String methodText = js.masked.substring(m.paramsOpen(), m.bodyClose());
    String attempt = ReceiptGate.fresh(methodText, "attempt");
    String e = ReceiptGate.fresh(methodText, "e");
    String maskedStmt = js.masked.substring(stmt[0], stmt[1]);
    String callText = js.text.substring(call.start(), call.end());
    boolean isReturn = maskedStmt.matches("(?s)return\\b.*");

    List<String> lines = new ArrayList<>();
    List<String> body = new ArrayList<>();
    String statement = js.text.substring(stmt[0], stmt[1] + 1);
    String response = null;
    Matcher decl = DECL.matcher(maskedStmt);
    Matcher assign = ASSIGN.matcher(maskedStmt);
    if (!isReturn && decl.lookingAt() && !STATEMENT_KEYWORDS.contains(decl.group(1))) {
      String type = js.text.substring(stmt[0] + decl.start(1), stmt[0] + decl.end(1)).trim();
      String name = decl.group(2);
      String init = js.text.substring(stmt[0] + decl.end(), stmt[1] + 1).trim();
      if (type.equals("var")) {
        type = knownType(call, callText);
        if (type == null) {
          return null;
        }
      }
      lines.add(type + " " + name + ";");
      statement = name + " = " + init;
      if (js.masked.substring(stmt[0] + decl.end(), stmt[1]).trim().length() == call.end() - call.start()) {
        response = name;
      }
    } else if (!isReturn && assign.lookingAt()
        && js.masked.substring(stmt[0] + assign.end(), stmt[1]).trim().length() == call.end() - call.start()) {
      response = assign.group(1);
    }
    List<String> check = List.of();
    if (call.kind() == Kind.HTTP) {
      boolean bare = response == null && maskedStmt.trim().length() == call.end() - call.start();
      if (response == null) {
        response = ReceiptGate.fresh(methodText, "sent");
        body.add("var " + response + " = " + callText + ";");
        statement = bare ? null : statement.replace(callText, response);
      }
      check = List.of(
          "if (" + attempt + " < RETRY_MAX_ATTEMPTS && isTransientStatus(" + response + ".statusCode())) {",
          unit + "backoffBeforeRetry(" + attempt + ");",
          unit + "continue;",
          "}");
      if (!body.isEmpty()) {
        body.addAll(check);
        check = List.of();
      }
    }
    if (statement != null) {
      body.addAll(reindent(statement, indent));
    }
    body.addAll(check);
    if (!isReturn) {
      body.add("break;");
    }
    String transientCheck = switch (call.kind()) {
      case HTTP -> "";
      case JDBC -> " || !isTransient(" + e + ")";
      case SPRING -> " || !isTransientFailure(" + e + ")";
    };
    lines.add("for (int " + attempt + " = 1; ; " + attempt + "++) {");
    lines.add(unit + "try {");
    for (String b : body) {
      lines.add(unit + unit + b);
    }
    lines.add(unit + "} catch (" + call.kind().caught + " " + e + ") {");
    lines.add(unit + unit + "if (" + attempt + " >= RETRY_MAX_ATTEMPTS" + transientCheck + ") {");
    lines.add(unit + unit + unit + "throw " + e + ";");
    lines.add(unit + unit + "}");
    lines.add(unit + unit + "backoffBeforeRetry(" + attempt + ");");
    lines.add(unit + "}");
    lines.add("}");
    StringBuilder out = new StringBuilder(lines.get(0));
    for (int i = 1; i < lines.size(); i++) {
      out.append('\n').append(indent).append(lines.get(i));
    }
    return out.toString();
  }

  /** The statement's lines, relative to the statement's own indentation. */
  private static List<String> reindent(String statement, String indent) {
    List<String> out = new ArrayList<>();
    String[] parts = statement.split("\n", -1);
    out.add(parts[0]);
    for (int i = 1; i < parts.length; i++) {
      out.add(parts[i].startsWith(indent) ? parts[i].substring(indent.length()) : parts[i].stripLeading());
    }
    return out;
  }

  /** The type a {@code var} declaration of a remote call's result has, when Vigil can name it. */
  private String knownType(Call call, String callText) {
    String compact = callText.replaceAll("\\s+", "");
    if (call.kind() == Kind.HTTP) {
      if (compact.endsWith("ofString())")) {
        return "HttpResponse<String>";
      }
      if (compact.endsWith("ofByteArray())")) {
        return "HttpResponse<byte[]>";
      }
      if (compact.endsWith("discarding())")) {
        return "HttpResponse<Void>";
      }
      return null;
    }
    if (call.kind() == Kind.JDBC) {
      if (compact.contains(".executeQuery(")) {
        Imports.ensure(js, edits, "java.sql.ResultSet");
        return "ResultSet";
      }
      return compact.contains(".executeLargeUpdate(") ? "long" : "int";
    }
    return null;
  }

  private void addHelpers(JavaSource.TypeDecl type, Set<Kind> kinds) {
    String unit = js.indentUnit();
    String in = js.indentAt(type.headerStart()) + unit;
    List<String> h = new ArrayList<>();
    h.add(in + "/** At most this many attempts of a remote call (added by Vigil's RetryErrorsStrategy). */");
    h.add(in + "private static final int RETRY_MAX_ATTEMPTS = 3;");
    h.add("");
    h.add(in + "/** Waits before the next attempt: exponential backoff from 200 ms, capped at 5 s, with jitter. */");
    h.add(in + "private static void backoffBeforeRetry(int attempt) {");
    h.add(in + unit + "long ceiling = Math.min(5_000L, 200L << Math.min(attempt - 1, 5));");
    h.add(in + unit + "long delay = ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);");
    h.add(in + unit + "try {");
    h.add(in + unit + unit + "Thread.sleep(delay);");
    h.add(in + unit + "} catch (InterruptedException e) {");
    h.add(in + unit + unit + "Thread.currentThread().interrupt();");
    h.add(in + unit + unit + "throw new IllegalStateException(\"Interrupted while waiting to retry\", e);");
    h.add(in + unit + "}");
    h.add(in + "}");
    List<String> imports = new ArrayList<>(List.of("java.util.concurrent.ThreadLocalRandom"));
    if (kinds.contains(Kind.HTTP)) {
      imports.add("java.io.IOException");
      h.add("");
      h.add(in + "/** True for the HTTP statuses worth another attempt: 429, 502, 503 and 504. */");
      h.add(in + "private static boolean isTransientStatus(int status) {");
      h.add(in + unit + "return status == 429 || status == 502 || status == 503 || status == 504;");
      h.add(in + "}");
    }
    if (kinds.contains(Kind.JDBC)) {
      imports.addAll(List.of("java.sql.SQLException", "java.sql.SQLRecoverableException",
          "java.sql.SQLTransientException"));
      h.add("");
      h.add(in + "/** True for the SQL failures worth another attempt. */");
      h.add(in + "private static boolean isTransient(SQLException e) {");
      h.add(in + unit + "return e instanceof SQLTransientException || e instanceof SQLRecoverableException;");
      h.add(in + "}");
    }
    if (kinds.contains(Kind.SPRING)) {
      imports.addAll(List.of("java.io.IOException", "java.util.concurrent.TimeoutException"));
      h.add("");
      h.add(in + "/** True for failures worth another attempt: I/O errors, timeouts, unavailable servers. */");
      h.add(in + "private static boolean isTransientFailure(Throwable failure) {");
      h.add(in + unit + "for (Throwable t = failure; t != null && t != t.getCause(); t = t.getCause()) {");
      h.add(in + unit + unit + "String name = t.getClass().getSimpleName();");
      h.add(in + unit + unit
          + "if (t instanceof IOException || t instanceof TimeoutException || name.contains(\"Timeout\")");
      h.add(in + unit + unit + unit + unit + "|| name.contains(\"Transient\") || name.contains(\"ResourceAccess\")");
      h.add(in + unit + unit + unit + unit + "|| name.contains(\"ServerError\") || name.contains(\"Unavailable\")) {");
      h.add(in + unit + unit + unit + "return true;");
      h.add(in + unit + unit + "}");
      h.add(in + unit + "}");
      h.add(in + unit + "return false;");
      h.add(in + "}");
    }
    Imports.ensure(js, edits, imports.toArray(String[]::new));
    int close = type.bodyClose();
    if (js.startsLine(close)) {
      edits.insert(js.lineStart(close), "\n" + String.join("\n", h) + "\n");
    } else {
      edits.insert(close, "\n\n" + String.join("\n", h) + "\n" + js.indentAt(type.headerStart()));
    }
  }
}
