package dev.vigil.adapt.code;

import com.github.javaparser.ast.body.TypeDeclaration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The few members the retry loops ({@link RetryLoop}) call, added at the end of the outermost class
 * so that the patched file compiles on its own with no new dependency: the attempt bound, the
 * jittered exponential backoff, and the test for a failure worth another attempt of each kind of
 * call the class retries.
 */
final class RetryHelpers {
  private RetryHelpers() {}

  /** Adds the helpers for {@code kinds} to {@code type}, with the imports they need. */
  static void add(JavaFile java, TypeDeclaration<?> type, Set<RemoteCall.Kind> kinds) {
    String unit = java.layout().indentUnit();
    String in = java.layout().indentOf(type) + unit;
    java.addMember(
        type,
        "At most this many attempts of a remote call (added by Vigil's RetryErrorsStrategy).",
        "private static final int RETRY_MAX_ATTEMPTS = 3;");
    addBackoff(java, type, in, unit);
    List<String> imports = new ArrayList<>(List.of("java.util.concurrent.ThreadLocalRandom"));
    if (kinds.contains(RemoteCall.Kind.HTTP)) {
      imports.add("java.io.IOException");
      addHttpTest(java, type, in, unit);
    }
    if (kinds.contains(RemoteCall.Kind.JDBC)) {
      imports.addAll(
          List.of(
              "java.sql.SQLException",
              "java.sql.SQLRecoverableException",
              "java.sql.SQLTransientException"));
      addJdbcTest(java, type, in, unit);
    }
    if (kinds.contains(RemoteCall.Kind.SPRING)) {
      imports.addAll(List.of("java.io.IOException", "java.util.concurrent.TimeoutException"));
      addSpringTest(java, type, in, unit);
    }
    Imports.ensure(java, imports.toArray(String[]::new));
  }

  /** Adds {@code backoffBeforeRetry}: exponential backoff with jitter between attempts. */
  private static void addBackoff(JavaFile java, TypeDeclaration<?> type, String in, String unit) {
    String in2 = in + unit;
    java.addMember(
        type,
        "Waits before the next attempt: exponential backoff from 200 ms, capped at 5 s, with jitter.",
        String.join(
            "\n",
            "private static void backoffBeforeRetry(int attempt) {",
            in2 + "long ceiling = Math.min(5_000L, 200L << Math.min(attempt - 1, 5));",
            in2
                + "long delay = ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);",
            in2 + "try {",
            in2 + unit + "Thread.sleep(delay);",
            in2 + "} catch (InterruptedException e) {",
            in2 + unit + "Thread.currentThread().interrupt();",
            in2
                + unit
                + "throw new IllegalStateException(\"Interrupted while waiting to retry\", e);",
            in2 + "}",
            in + "}"));
  }

  /** Adds {@code isTransientStatus}, the test for HTTP statuses worth another attempt. */
  private static void addHttpTest(JavaFile java, TypeDeclaration<?> type, String in, String unit) {
    String in2 = in + unit;
    java.addMember(
        type,
        "True for the HTTP statuses worth another attempt: 429, 502, 503 and 504.",
        String.join(
            "\n",
            "private static boolean isTransientStatus(int status) {",
            in2 + "return status == 429 || status == 502 || status == 503 || status == 504;",
            in + "}"));
  }

  /** Adds {@code isTransient}, the test for SQL failures worth another attempt. */
  private static void addJdbcTest(JavaFile java, TypeDeclaration<?> type, String in, String unit) {
    String in2 = in + unit;
    java.addMember(
        type,
        "True for the SQL failures worth another attempt.",
        String.join(
            "\n",
            "private static boolean isTransient(SQLException e) {",
            in2
                + "return e instanceof SQLTransientException || e instanceof SQLRecoverableException;",
            in + "}"));
  }

  /** Adds {@code isTransientFailure}, the test for Spring client failures worth another attempt. */
  private static void addSpringTest(
      JavaFile java, TypeDeclaration<?> type, String in, String unit) {
    String in2 = in + unit;
    String in3 = in2 + unit;
    java.addMember(
        type,
        "True for failures worth another attempt: I/O errors, timeouts, unavailable servers.",
        String.join(
            "\n",
            "private static boolean isTransientFailure(Throwable failure) {",
            in2 + "for (Throwable t = failure; t != null && t != t.getCause(); t = t.getCause()) {",
            in3 + "String name = t.getClass().getSimpleName();",
            in3
                + "if (t instanceof IOException || t instanceof TimeoutException || name.contains(\"Timeout\")",
            in3
                + unit
                + unit
                + "|| name.contains(\"Transient\") || name.contains(\"ResourceAccess\")",
            in3
                + unit
                + unit
                + "|| name.contains(\"ServerError\") || name.contains(\"Unavailable\")) {",
            in3 + unit + "return true;",
            in3 + "}",
            in2 + "}",
            in2 + "return false;",
            in + "}"));
  }
}
