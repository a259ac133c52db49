package dev.vigil.adapt.code;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The receipt-gating half of {@link TZReceiptStrategy}: a method that obtains a future of a confirmation and goes on
 * to report success without waiting for it now waits, with a bound, through the future it already has.
 *
 * <p>A future of a confirmation is, inside a method body: a local declared as {@code CompletableFuture<T>},
 * {@code CompletionStage<T>} or {@code Future<T>}, or with {@code var} from a call to a method of the repository
 * that returns one, where the type argument, the variable or the called method has a receipt word
 * ({@link ReceiptWords}); or a call to such a repository method made as a statement of its own (its future
 * ignored). It counts as waited for when a later use calls {@code get}, {@code join}, {@code getNow},
 * {@code isDone}, {@code orTimeout}, …, or hands the future on (an argument, a return, an assignment); registering a
 * callback ({@code thenAccept}, {@code whenComplete}) is not waiting.
 *
 * <p>Right after the statement that obtains the future, the gate inserts a bounded wait
 * ({@code future.get(30, TimeUnit.SECONDS)}, {@code toCompletableFuture()} first for a {@code CompletionStage}).
 * On timeout, failure or interruption a method returning text returns a "Pending: …"/"Failed: …" message, a
 * {@code boolean} one returns {@code false}, a {@code void} one throws {@link IllegalStateException}; other return
 * types, methods that return the future itself, lambdas and anonymous classes are left alone with a note.
 */
final class ReceiptGate {
  private static final Pattern FUTURE_DECL =
      Pattern.compile("\\b(CompletableFuture|CompletionStage|Future|ListenableFuture)\\s*<");
  private static final Pattern DECLARED_NAME = Pattern.compile("\\s+([A-Za-z_$][\\w$]*)\\s*=(?!=)");
  private static final Pattern VAR_DECL = Pattern.compile("\\bvar\\s+([A-Za-z_$][\\w$]*)\\s*=(?!=)");
  private static final Pattern CALL = Pattern.compile("\\b([A-Za-z_$][\\w$]*)\\s*\\(");
  private static final Set<String> WAITS = Set.of("get", "join", "getNow", "isDone", "resultNow", "state",
      "isCompletedExceptionally", "orTimeout", "completeOnTimeout", "cancel", "isCancelled", "toCompletableFuture");
  private static final Set<String> TEXT_TYPES = Set.of("String", "CharSequence", "Object");

  private record Candidate(int stmtStart, int stmtEnd, String variable, String futureType, String typeArgument,
      String call) {}

  private final String file;
  private final JavaSource js;
  private final JavaRepo repo;
  private final Edits edits;
  private final List<String> changes;
  private final List<String> notes;
  private final Duration timeout;

  ReceiptGate(String file, JavaSource js, JavaRepo repo, Edits edits, List<String> changes, List<String> notes,
      Duration timeout) {
    this.file = file;
    this.js = js;
    this.repo = repo;
    this.edits = edits;
    this.changes = changes;
    this.notes = notes;
    this.timeout = timeout;
  }

  /** Records the edits; returns how many methods were gated. */
  int rewrite() {
    int gated = 0;
    boolean imported = false;
    for (JavaSource.Method m : js.methods()) {
      for (Candidate c : candidates(m)) {
        String why = refusal(m, c);
        int line = js.lineOf(c.stmtStart());
        if (why != null) {
          if (!why.isEmpty()) {
            notes.add(file + ":" + line + ": `" + TimeRewriter.shorten(c.call()) + "` " + why);
          }
          continue;
        }
        if (gate(m, c)) {
          gated++;
          if (!imported) {
            Imports.ensure(js, edits, "java.util.concurrent.ExecutionException", "java.util.concurrent.TimeUnit",
                "java.util.concurrent.TimeoutException");
            imported = true;
          }
          changes.add(file + ":" + line + ": `" + TimeRewriter.shorten(c.call()) + "` yields a future of the "
              + "confirmation that `" + m.name() + "` did not wait for; it now waits for it (at most "
              + human(timeout) + ") before reporting success, and reports "
              + (returnsText(m) ? "pending or failed" : m.returnType().equals("void") ? "an exception" : "false")
              + " otherwise");
          break;
        }
      }
    }
    return gated;
  }

  private List<Candidate> candidates(JavaSource.Method m) {
    List<Candidate> found = new ArrayList<>();
    String body = js.masked;
    Matcher typed = FUTURE_DECL.matcher(body).region(m.bodyOpen() + 1, m.bodyClose());
    while (typed.find()) {
      int close = js.matchForward(typed.end() - 1);
      if (close < 0 || !m.equals(js.methodAt(typed.start()))) {
        continue;
      }
      Matcher name = DECLARED_NAME.matcher(body).region(close + 1, m.bodyClose());
      int[] stmt = js.statementAround(typed.start());
      if (!name.lookingAt() || stmt == null) {
        continue;
      }
      String typeArg = body.substring(typed.end(), close).replaceAll("\\s+", " ").trim();
      String init = body.substring(name.end(), stmt[1]);
      if (ReceiptWords.in(typeArg) || ReceiptWords.in(name.group(1)) || ReceiptWords.in(init)) {
        found.add(new Candidate(stmt[0], stmt[1], name.group(1), typed.group(1), typeArg,
            js.text.substring(name.end(), stmt[1]).trim()));
      }
    }
    Matcher var = VAR_DECL.matcher(body).region(m.bodyOpen() + 1, m.bodyClose());
    while (var.find()) {
      int[] stmt = js.statementAround(var.start());
      if (stmt == null || !m.equals(js.methodAt(var.start()))) {
        continue;
      }
      JavaRepo.FutureMethod called = lastTopLevelCall(var.end(), stmt[1]);
      if (called != null && (called.ofReceipt() || ReceiptWords.in(var.group(1)))) {
        found.add(new Candidate(stmt[0], stmt[1], var.group(1), called.futureType(), called.typeArgument(),
            js.text.substring(var.end(), stmt[1]).trim()));
      }
    }
    Matcher call = CALL.matcher(body).region(m.bodyOpen() + 1, m.bodyClose());
    while (call.find()) {
      JavaRepo.FutureMethod called = repo.futureCall(js, call.start(1));
      if (called == null || !called.ofReceipt() || !m.equals(js.methodAt(call.start()))
          || !HotspotScanner.isIgnoredCall(js, call.start(1), call.end() - 1)) {
        continue;
      }
      int[] stmt = js.statementAround(call.start(1));
      found.add(new Candidate(stmt[0], stmt[1], null, called.futureType(), called.typeArgument(),
          js.text.substring(stmt[0], stmt[1]).trim()));
    }
    found.sort((a, b) -> Integer.compare(a.stmtStart(), b.stmtStart()));
    return found;
  }

  /** The repository future method called last at the top level of {@code [from, to)}, or null. */
  private JavaRepo.FutureMethod lastTopLevelCall(int from, int to) {
    JavaRepo.FutureMethod last = null;
    int depth = 0;
    Matcher call = CALL.matcher(js.masked).region(from, to);
    int scanned = from;
    while (call.find()) {
      for (int i = scanned; i < call.start(); i++) {
        char ch = js.masked.charAt(i);
        depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      }
      scanned = call.start();
      if (depth == 0) {
        last = repo.futureCall(js, call.start(1));
      }
    }
    return last;
  }

  /** Why a candidate is left alone: null to gate it, empty to skip it without a note. */
  private String refusal(JavaSource.Method m, Candidate c) {
    if (m.returnType() == null) {
      return "";
    }
    if (c.variable() != null && waitedFor(c.variable(), c.stmtEnd(), m.bodyClose())) {
      return "";
    }
    if (m.returnType().matches(".*\\b(?:CompletableFuture|CompletionStage|Future|ListenableFuture)\\b.*")) {
      return "";
    }
    if (!js.directlyIn(m, c.stmtStart()) || !js.startsLine(c.stmtStart()) || !js.endsLine(c.stmtEnd())) {
      return "yields a confirmation nobody waits for, inside a lambda or sharing its line; left unchanged";
    }
    if (!returnsText(m) && !m.returnType().equals("void") && !m.returnType().matches("boolean|Boolean")) {
      return "yields a confirmation nobody waits for, but `" + m.name() + "` returns " + m.returnType()
          + ", which has no way to say \"pending\"; left unchanged";
    }
    return null;
  }

  private boolean returnsText(JavaSource.Method m) {
    return TEXT_TYPES.contains(m.returnType()) || m.returnType().equals("java.lang.String");
  }

  /** True when the future held in {@code variable} is waited for or handed on after {@code from}. */
  private boolean waitedFor(String variable, int from, int to) {
    Matcher use = Pattern.compile("(?<![\\w$.])" + Pattern.quote(variable) + "\\b").matcher(js.masked)
        .region(from, to);
    while (use.find()) {
      int next = js.skipSpace(use.end());
      if (next >= to || js.masked.charAt(next) != '.') {
        return true;
      }
      Matcher method = CALL.matcher(js.masked).region(js.skipSpace(next + 1), to);
      if (!method.lookingAt() || WAITS.contains(method.group(1))) {
        return true;
      }
      int[] stmt = js.statementAround(use.start());
      if (stmt != null && js.masked.substring(use.start(), stmt[1]).matches("(?s).*\\.\\s*(?:join|get)\\s*\\([^;]*")) {
        return true;
      }
    }
    return false;
  }

  private boolean gate(JavaSource.Method m, Candidate c) {
    String methodText = js.masked.substring(m.paramsOpen(), m.bodyClose());
    String indent = js.indentAt(c.stmtStart());
    String unit = js.indentUnit();
    String variable = c.variable();
    if (variable == null) {
      variable = fresh(methodText, baseName(c.typeArgument()));
      if (!edits.insert(c.stmtStart(), "var " + variable + " = ")) {
        return false;
      }
    }
    String e = fresh(methodText, "e");
    String wait = c.futureType().equals("CompletionStage") ? variable + ".toCompletableFuture()" : variable;
    String amount = timeout.toMillis() % 1000 == 0
        ? timeout.toSeconds() + ", TimeUnit.SECONDS" : timeout.toMillis() + ", TimeUnit.MILLISECONDS";
    String[] onTimeout;
    String[] onFailure;
    String[] onInterrupt;
    if (returnsText(m)) {
      onTimeout = new String[] {"return \"Pending: not confirmed within " + human(timeout)
          + ", so not reported as done yet.\";"};
      onFailure = new String[] {"return \"Failed: not confirmed (\" + " + e + ".getCause() + \").\";"};
      onInterrupt = new String[] {"Thread.currentThread().interrupt();",
          "return \"Pending: interrupted before the confirmation arrived, so not reported as done yet.\";"};
    } else if (m.returnType().equals("void")) {
      onTimeout = new String[] {"throw new IllegalStateException(\"Not confirmed within " + human(timeout)
          + "\", " + e + ");"};
      onFailure = new String[] {"throw new IllegalStateException(\"Not confirmed\", " + e + ".getCause());"};
      onInterrupt = new String[] {"Thread.currentThread().interrupt();",
          "throw new IllegalStateException(\"Interrupted before the confirmation arrived\", " + e + ");"};
    } else {
      onTimeout = new String[] {"return false;"};
      onFailure = new String[] {"return false;"};
      onInterrupt = new String[] {"Thread.currentThread().interrupt();", "return false;"};
    }
    List<String> lines = new ArrayList<>();
    lines.add(indent + "// Report success only once the confirmation is in; wait for it at most " + human(timeout)
        + ".");
    lines.add(indent + "try {");
    lines.add(indent + unit + wait + ".get(" + amount + ");");
    lines.add(indent + "} catch (TimeoutException " + e + ") {");
    addAll(lines, indent + unit, onTimeout);
    lines.add(indent + "} catch (ExecutionException " + e + ") {");
    addAll(lines, indent + unit, onFailure);
    lines.add(indent + "} catch (InterruptedException " + e + ") {");
    addAll(lines, indent + unit, onInterrupt);
    lines.add(indent + "}");
    return edits.insert(js.lineEnd(c.stmtEnd()), "\n" + String.join("\n", lines));
  }

  private static void addAll(List<String> lines, String indent, String[] statements) {
    for (String s : statements) {
      lines.add(indent + s);
    }
  }

  /** A variable name after the confirmation's type: {@code Receipt} gives {@code receipt}. */
  private static String baseName(String typeArgument) {
    String type = ReceiptWords.first(typeArgument == null ? "" : typeArgument);
    if (type == null) {
      return "confirmation";
    }
    String simple = type.substring(type.lastIndexOf('.') + 1);
    return Character.toLowerCase(simple.charAt(0)) + simple.substring(1);
  }

  /** {@code base}, or {@code base2}, {@code base3}… when the method already uses the name. */
  static String fresh(String methodText, String base) {
    String name = base;
    for (int n = 2; Pattern.compile("(?<![\\w$])" + Pattern.quote(name) + "(?![\\w$])").matcher(methodText).find();
        n++) {
      name = base + n;
    }
    return name;
  }

  static String human(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
  }
}
