package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetryErrorsStrategyTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @TempDir Path dir;

  private HttpServer server;
  private final Deque<Integer> statuses = new ArrayDeque<>();
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeEach
  void startServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          Integer status = statuses.poll();
          byte[] body =
              (status == null || status == 200 ? "sunny" : "busy").getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(status == null ? 200 : status, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterEach
  void stopServer() {
    server.stop(0);
  }

  @Test
  void httpClientProposalMatchesTheGoldenDiffAndNeverWritesTheRepo() throws Exception {
    Path repo = TestRepos.copy("http-client", dir);
    Map<String, String> before = TestRepos.checksums(repo);

    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.failureEvidence(), dir.resolve("out"), NOW);

    assertEquals(before, TestRepos.checksums(repo), "the repository was written");
    Proposal p = outcome.written().get(0);
    assertEquals("RetryErrorsStrategy", p.strategy());
    assertEquals(TestRepos.text("golden/http-client.diff"), Files.readString(p.diff()));
    assertEquals(3, p.changes().size());
    String pr = Files.readString(p.pr());
    assertTrue(pr.contains("| failed / timed-out events | 6 / 2 |"), pr);
    assertTrue(
        pr.contains("| top thorn | `tool.forecast:fail` (summed decayed intensity 4.2) |"), pr);
  }

  @Test
  void patchedClientRetriesOnceAfterATransient503() throws Exception {
    Path repo = TestRepos.copy("http-client", dir);
    Proposal p =
        CodeProposals.propose(repo, TestRepos.failureEvidence(), dir.resolve("out"), NOW)
            .written()
            .get(0);
    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);
    try (URLClassLoader original = TestRepos.compile(repo, dir.resolve("classes-before"));
        URLClassLoader fixed = TestRepos.compile(patched, dir.resolve("classes-after"))) {
      statuses.add(503);
      InvocationTargetException failure =
          assertThrows(InvocationTargetException.class, () -> forecast(original, "paris"));
      assertInstanceOf(IOException.class, failure.getCause());
      assertEquals("forecast for paris failed with HTTP 503", failure.getCause().getMessage());
      assertEquals(1, requests.getAndSet(0), "as shipped: one call, no retry");

      statuses.add(503);
      assertEquals("sunny", forecast(fixed, "paris"));
      assertEquals(2, requests.getAndSet(0), "one retry after the transient 503");

      statuses.addAll(List.of(503, 503, 503, 503));
      assertEquals(503, ping(fixed), "bounded: the third answer is returned as it is");
      assertEquals(3, requests.getAndSet(0), "at most 3 attempts");

      statuses.clear();
      statuses.add(404);
      InvocationTargetException notFound =
          assertThrows(InvocationTargetException.class, () -> forecast(fixed, "atlantis"));
      assertEquals("forecast for atlantis failed with HTTP 404", notFound.getCause().getMessage());
      assertEquals(1, requests.get(), "a 404 is not worth another attempt");
    }
  }

  @Test
  void jdbcCallsAreRetriedOnTransientFailuresOnly() throws Exception {
    Path repo =
        TestRepos.write(
            dir.resolve("orders"),
            "src/main/java/shop/Orders.java",
            """
        package shop;

        import java.sql.SQLException;
        import java.sql.Statement;

        public class Orders {
          private final Statement statement;

          public Orders(Statement statement) {
            this.statement = statement;
          }

          public int ship(long id) throws SQLException {
            int updated = statement.executeUpdate("update orders set shipped = true where id = " + id);
            return updated;
          }
        }
        """);
    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.failureEvidence(), dir.resolve("out"), NOW);
    Proposal p = outcome.written().get(0);
    assertTrue(
        p.checks().stream().allMatch(c -> c.outcome() == Check.Outcome.PASSED),
        p.checks().toString());
    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);
    String text = Files.readString(patched.resolve("src/main/java/shop/Orders.java"));
    assertTrue(text.contains("if (attempt >= RETRY_MAX_ATTEMPTS || !isTransient(e)) {"), text);

    try (URLClassLoader fixed = TestRepos.compile(patched, dir.resolve("classes"))) {
      AtomicInteger calls = new AtomicInteger();
      Statement flaky =
          statement(
              () -> {
                if (calls.incrementAndGet() == 1) {
                  throw new SQLTransientConnectionException("connection reset");
                }
                return 1;
              });
      Object orders =
          fixed.loadClass("shop.Orders").getConstructor(Statement.class).newInstance(flaky);
      assertEquals(1, orders.getClass().getMethod("ship", long.class).invoke(orders, 7L));
      assertEquals(2, calls.get(), "one retry after the transient failure");

      AtomicInteger syntax = new AtomicInteger();
      Statement broken =
          statement(
              () -> {
                syntax.incrementAndGet();
                throw new SQLSyntaxErrorException("no such table");
              });
      Object brokenOrders =
          fixed.loadClass("shop.Orders").getConstructor(Statement.class).newInstance(broken);
      InvocationTargetException e =
          assertThrows(
              InvocationTargetException.class,
              () -> brokenOrders.getClass().getMethod("ship", long.class).invoke(brokenOrders, 7L));
      assertInstanceOf(SQLSyntaxErrorException.class, e.getCause());
      assertEquals(1, syntax.get(), "a syntax error is not retried");
    }
  }

  @Test
  void restTemplateCallsAreRetriedWhenTheFailureLooksTransient() throws Exception {
    Path repo =
        TestRepos.write(
            dir.resolve("quotes"),
            "src/main/java/q/RestTemplate.java",
            """
        package q;

        /** Stands in for Spring's RestTemplate: fails as many times as told, then answers. */
        public class RestTemplate {
          public int failures;
          public int calls;
          public RuntimeException failure;

          public String getForObject(String url, Class<String> type) {
            calls++;
            if (failures-- > 0) {
              throw failure;
            }
            return "42";
          }
        }
        """,
            "src/main/java/q/ResourceAccessException.java",
            """
        package q;

        public class ResourceAccessException extends RuntimeException {
          public ResourceAccessException(String message) {
            super(message);
          }
        }
        """,
            "src/main/java/q/Quotes.java",
            """
        package q;

        public class Quotes {
          private final RestTemplate rest;

          public Quotes(RestTemplate rest) {
            this.rest = rest;
          }

          public String quote(String symbol) {
            return rest.getForObject("https://quotes.invalid/" + symbol, String.class);
          }
        }
        """);
    Proposal p =
        CodeProposals.propose(repo, TestRepos.failureEvidence(), dir.resolve("out"), NOW)
            .written()
            .get(0);
    assertEquals(List.of("src/main/java/q/Quotes.java"), p.files());
    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);
    try (URLClassLoader fixed = TestRepos.compile(patched, dir.resolve("classes"))) {
      Class<?> restType = fixed.loadClass("q.RestTemplate");
      Object rest = restType.getConstructor().newInstance();
      restType.getField("failures").set(rest, 1);
      restType
          .getField("failure")
          .set(
              rest,
              fixed
                  .loadClass("q.ResourceAccessException")
                  .getConstructor(String.class)
                  .newInstance("connection reset"));
      Object quotes = fixed.loadClass("q.Quotes").getConstructor(restType).newInstance(rest);
      assertEquals("42", quotes.getClass().getMethod("quote", String.class).invoke(quotes, "ACME"));
      assertEquals(
          2, restType.getField("calls").get(rest), "one retry after the transient failure");

      restType.getField("calls").set(rest, 0);
      restType.getField("failures").set(rest, 1);
      restType.getField("failure").set(rest, new IllegalArgumentException("bad symbol"));
      InvocationTargetException e =
          assertThrows(
              InvocationTargetException.class,
              () -> quotes.getClass().getMethod("quote", String.class).invoke(quotes, "??"));
      assertInstanceOf(IllegalArgumentException.class, e.getCause());
      assertEquals(1, restType.getField("calls").get(rest), "a programming error is not retried");
    }
  }

  @Test
  void leavesAloneWhatItCannotWrapSafely() throws Exception {
    TestRepos.write(
        dir,
        "src/c/Client.java",
        """
        package c;

        import java.io.IOException;
        import java.net.http.HttpClient;
        import java.net.http.HttpRequest;
        import java.net.http.HttpResponse;
        import java.util.List;

        class Client {
          private final HttpClient http = HttpClient.newHttpClient();

          int retrying(HttpRequest r) throws IOException, InterruptedException {
            for (int attempt = 0; attempt < 5; attempt++) {
              int status = http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode();
              if (status == 200) {
                return status;
              }
            }
            return -1;
          }

          boolean inACondition(HttpRequest r) throws IOException, InterruptedException {
            if (http.send(r, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
              return true;
            }
            return false;
          }

          void inALambda(List<HttpRequest> rs) {
            rs.forEach(r -> http.sendAsync(r, HttpResponse.BodyHandlers.discarding()));
          }

          Object unknownType(HttpRequest r) throws IOException, InterruptedException {
            var lines = http.send(r, HttpResponse.BodyHandlers.ofLines());
            return lines;
          }
        }
        """);
    Transformation t =
        TestRepos.transform(new RetryErrorsStrategy(), dir, TestRepos.failureEvidence())
            .get("src/c/Client.java");
    assertFalse(t.changed(), t.source());
    assertEquals(
        List.of(
            "src/c/Client.java:14: `http.send(r, HttpResponse.BodyHandlers.discarding())` is in `retrying`, which"
                + " already speaks of retries; left unchanged",
            "src/c/Client.java:23: `http.send(r, HttpResponse.BodyHandlers.discarding())` is not a plain statement"
                + " of a method body; left unchanged",
            "src/c/Client.java:34: `http.send(r, HttpResponse.BodyHandlers.ofLines())` is declared with `var` and a"
                + " type Vigil cannot name; left unchanged"),
        t.notes());
  }

  @Test
  void scoresOnlyWithFailureEvidenceAndRemoteCalls() throws Exception {
    List<Hotspot> hotspots = HotspotScanner.scan(TestRepos.copy("http-client", dir));
    RetryErrorsStrategy s = new RetryErrorsStrategy();
    assertEquals(1.0, s.score(TestRepos.failureEvidence(), hotspots));
    assertEquals(0.0, s.score(Evidence.none(), hotspots));
    assertEquals(0.0, s.score(TestRepos.robinEvidence(), hotspots));
    assertEquals(0.0, s.score(TestRepos.failureEvidence(), List.of()));
    assertEquals(
        0.333,
        s.score(Evidence.builder().failures(2).build(), hotspots.subList(0, 1)),
        "no thorns but failed events: half strength, a third of the reach");
  }

  private interface Update {
    int run() throws Exception;
  }

  private static Statement statement(Update update) {
    return (Statement)
        Proxy.newProxyInstance(
            RetryErrorsStrategyTest.class.getClassLoader(),
            new Class<?>[] {Statement.class},
            (proxy, method, args) -> {
              if (method.getName().equals("executeUpdate")) {
                return update.run();
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }

  private String forecast(ClassLoader loader, String city) throws Exception {
    Class<?> client = loader.loadClass("net.weather.client.ForecastClient");
    Object c =
        client
            .getConstructor(HttpClient.class, URI.class)
            .newInstance(HttpClient.newHttpClient(), base());
    return (String) client.getMethod("forecast", String.class).invoke(c, city);
  }

  private int ping(ClassLoader loader) throws Exception {
    Class<?> client = loader.loadClass("net.weather.client.ForecastClient");
    Object c =
        client
            .getConstructor(HttpClient.class, URI.class)
            .newInstance(HttpClient.newHttpClient(), base());
    return (int) client.getMethod("ping").invoke(c);
  }

  private URI base() {
    return URI.create(
        "http://"
            + server.getAddress().getHostString()
            + ":"
            + server.getAddress().getPort()
            + "/");
  }
}
