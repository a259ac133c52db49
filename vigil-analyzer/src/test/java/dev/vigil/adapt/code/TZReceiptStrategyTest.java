package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TZReceiptStrategyTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final ScheduledExecutorService CONFIRMER =
      Executors.newSingleThreadScheduledExecutor();

  @TempDir Path dir;

  @AfterAll
  static void stopConfirmer() {
    CONFIRMER.shutdownNow();
  }

  @Test
  void receiptServiceProposalMatchesTheGoldenDiffAndNeverWritesTheRepo() throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    Map<String, String> before = TestRepos.checksums(repo);

    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW);

    assertEquals(before, TestRepos.checksums(repo), "the repository was written");
    assertEquals(CodeOutcome.Status.PROPOSED, outcome.status());
    Proposal p = outcome.written().get(0);
    assertEquals("TZReceiptStrategy", p.strategy());
    assertEquals(1.0, p.score());
    assertEquals(List.of("src/main/java/com/example/reminders/ReminderService.java"), p.files());
    assertEquals(dir.resolve("out/proposals/patch_20261122T120000Z.diff"), p.diff());
    assertEquals(dir.resolve("out/proposals/PR_20261122T120000Z.md"), p.pr());
    assertEquals(TestRepos.text("golden/receipt-service.diff"), Files.readString(p.diff()));
    assertTrue(
        p.checks().stream().allMatch(c -> c.outcome() == Check.Outcome.PASSED),
        p.checks().toString());

    String pr = Files.readString(p.pr());
    assertTrue(pr.contains("| premature successes | 12 |"), pr);
    assertTrue(pr.contains("| mean receipt lag | 97.0 s |"), pr);
    assertTrue(
        pr.contains(
            "| top thorn | `tool.set_reminder.premature:fail` (summed decayed intensity 7.4) |"),
        pr);
    assertTrue(pr.contains("| `tool.set_reminder:delay` | 4 |"), pr);
    assertTrue(pr.contains("git -C " + repo + " apply " + p.diff()), pr);
    assertTrue(pr.contains("git -C " + repo + " apply -R " + p.diff()), pr);
    assertFalse(
        Files.readString(p.diff()).contains("ReminderServiceTest"),
        "test sources are never rewritten");
  }

  @Test
  void patchedReceiptServiceReportsSuccessOnlyAfterTheReceiptAndPendingOnTimeout()
      throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    CodeProposals proposals =
        new CodeProposals(
            List.of(new TZReceiptStrategy(Duration.ofMillis(700))),
            CodeProposals.Settings.defaults());
    Proposal p =
        proposals.run(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW).written().get(0);
    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);

    try (URLClassLoader before = TestRepos.compile(repo, dir.resolve("classes-before"));
        URLClassLoader after = TestRepos.compile(patched, dir.resolve("classes-after"))) {
      Reminders original = new Reminders(before);
      Reminders fixed = new Reminders(after);

      Call premature = original.set(Duration.ofMillis(300));
      assertEquals("Reminder set for 2025-10-31T15:00:00Z", premature.result());
      assertFalse(
          premature.confirmedWhenReturned(), "as shipped, success is reported before the receipt");

      Call gated = fixed.set(Duration.ofMillis(300));
      assertEquals(
          "Reminder set for 2025-10-31T14:00:00Z",
          gated.result(),
          "15:00 in Paris on 31 October 2025 is 14:00 UTC");
      assertEquals(Instant.parse("2025-10-31T14:00:00Z"), gated.scheduledAt());
      assertTrue(gated.confirmedWhenReturned(), "success is reported only once the receipt is in");
      assertTrue(gated.took().toMillis() >= 250, "waited for the receipt: " + gated.took());

      Call unconfirmed = fixed.set(null);
      assertEquals(
          "Pending: not confirmed within 700 ms, so not reported as done yet.",
          unconfirmed.result());
      assertTrue(unconfirmed.took().toMillis() >= 650, "waited the bound: " + unconfirmed.took());

      Call failed = fixed.failing();
      assertTrue(
          failed
              .result()
              .startsWith("Failed: not confirmed (java.lang.IllegalStateException: backend down"),
          failed.result());
    }
  }

  @Test
  void localTimesProposalMatchesTheGoldenDiffAndReadsTimesInTheAttendeesZone() throws Exception {
    Path repo = TestRepos.copy("local-times", dir);
    Map<String, String> before = TestRepos.checksums(repo);
    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.timestampEvidence(), dir.resolve("out"), NOW);
    assertEquals(before, TestRepos.checksums(repo), "the repository was written");
    Proposal p = outcome.written().get(0);
    assertEquals(TestRepos.text("golden/local-times.diff"), Files.readString(p.diff()));
    assertTrue(Files.readString(p.pr()).contains("| timestamp inconsistencies | 3 |"));

    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);
    try (URLClassLoader before0 = TestRepos.compile(repo, dir.resolve("classes-before"));
        URLClassLoader after = TestRepos.compile(patched, dir.resolve("classes-after"))) {
      ZoneId newYork = ZoneId.of("America/New_York");
      assertEquals(
          Instant.parse("2025-07-01T09:30:00Z"),
          meetingStart(before0, newYork),
          "as shipped: read as UTC");
      assertEquals(
          Instant.parse("2025-07-01T13:30:00Z"),
          meetingStart(after, newYork),
          "09:30 in New York in July is 13:30 UTC");

      Object planner =
          after.loadClass("org.acme.meetings.MeetingPlanner").getConstructor().newInstance();
      Clock clock = Clock.fixed(Instant.parse("2025-07-01T13:00:00Z"), ZoneOffset.UTC);
      Method until =
          planner.getClass().getMethod("secondsUntil", String.class, ZoneId.class, Clock.class);
      assertEquals(1800L, until.invoke(planner, "2025-07-01T09:30", newYork, clock));
      Method created = planner.getClass().getMethod("createdAt", Clock.class);
      assertEquals(
          clock.instant(), created.invoke(planner, clock), "a time made in UTC is left as it was");
      String audit =
          (String)
              planner.getClass().getMethod("auditLine", String.class).invoke(planner, "standup");
      assertTrue(
          audit.matches(
              "planned standup at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d(:\\d\\d(\\.\\d+)?)?Z"),
          audit);
    }
  }

  @Test
  void mixedTimestampsAloneFixTimeButDoNotGateReceipts() throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    Map<String, Transformation> t =
        TestRepos.transform(new TZReceiptStrategy(), repo, TestRepos.timestampEvidence());
    String patched = t.get("src/main/java/com/example/reminders/ReminderService.java").source();
    assertTrue(patched.contains("LocalDateTime.parse(when).atZone(userZone).toInstant()"), patched);
    assertFalse(patched.contains(".get(30, TimeUnit.SECONDS)"), patched);
  }

  @Test
  void withoutAZoneInScopeTheTimeIsLeftAloneWithANote() throws Exception {
    TestRepos.write(
        dir,
        "src/a/Clocks.java",
        """
        package a;

        import java.time.Instant;
        import java.time.LocalDateTime;
        import java.time.ZoneOffset;

        class Clocks {
          Instant at(String when) {
            return LocalDateTime.parse(when).toInstant(ZoneOffset.UTC);
          }
        }
        """);
    Transformation t =
        TestRepos.transform(new TZReceiptStrategy(), dir, TestRepos.robinEvidence())
            .get("src/a/Clocks.java");
    assertFalse(t.changed());
    assertEquals(
        List.of(
            "src/a/Clocks.java:9: `LocalDateTime.parse(when).toInstant(ZoneOffset.UTC)` reads a local"
                + " time as UTC, but no ZoneId is in scope to read it in; left unchanged (give the method the user's zone)"),
        t.notes());
  }

  @Test
  void aTypedFutureWithOnlyACallbackIsGatedAndAVoidMethodThrowsWhenUnconfirmed() throws Exception {
    TestRepos.write(
        dir,
        "src/m/Gateway.java",
        """
        package m;

        import java.util.concurrent.CompletableFuture;

        interface Gateway {
          CompletableFuture<String> deliver(String message);
        }
        """,
        "src/m/Sender.java",
        """
        package m;

        import java.util.concurrent.CompletableFuture;

        class Sender {
          private final Gateway gateway;

          Sender(Gateway gateway) {
            this.gateway = gateway;
          }

          String send(String message) {
            CompletableFuture<String> delivered = gateway.deliver(message);
            delivered.thenAccept(id -> System.out.println("delivered " + id));
            return "Sent";
          }

          void sendQuietly(String message) {
            gateway.deliver(message);
          }

          String sendAndWait(String message) {
            CompletableFuture<String> delivered = gateway.deliver(message);
            return "Sent " + delivered.join();
          }
        }
        """);
    String patched =
        TestRepos.transform(new TZReceiptStrategy(), dir, TestRepos.robinEvidence())
            .get("src/m/Sender.java")
            .source();
    assertTrue(
        patched.contains(
            """
            CompletableFuture<String> delivered = gateway.deliver(message);
            // Report success only once the confirmation is in; wait for it at most 30 s.
            try {
              delivered.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
              return "Pending: not confirmed within 30 s, so not reported as done yet.";
        """),
        patched);
    assertTrue(
        patched.contains(
            """
            var confirmation = gateway.deliver(message);
            // Report success only once the confirmation is in; wait for it at most 30 s.
            try {
              confirmation.get(30, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
              throw new IllegalStateException("Not confirmed within 30 s", e);
        """),
        patched);
    assertEquals(
        2,
        patched.split("\\.get\\(30, TimeUnit.SECONDS\\)").length - 1,
        "sendAndWait already joins: left alone");
    assertTrue(
        patched.contains(
            "import java.util.concurrent.CompletableFuture;\n"
                + "import java.util.concurrent.ExecutionException;\n"
                + "import java.util.concurrent.TimeUnit;\n"
                + "import java.util.concurrent.TimeoutException;\n"),
        patched);
    CompileCheck javac = new CompileCheck(List.of());
    assertEquals(
        Check.Outcome.PASSED,
        javac.check(JavaRepo.scan(dir), Map.of("src/m/Sender.java", patched)).outcome());
  }

  @Test
  void anAgentToolThatParsesInsideTheSchedulingCallGetsBothRewrites() throws Exception {
    TestRepos.write(
        dir,
        "src/main/java/robin/Backend.java",
        """
        package robin;

        import java.time.Instant;
        import java.util.concurrent.CompletableFuture;

        public class Backend {
          public CompletableFuture<Receipt> schedule(String id, String text, Instant at) {
            return new CompletableFuture<>();
          }

          public record Receipt(String id) {}
        }
        """,
        "src/main/java/robin/Tools.java",
        """
        package robin;

        import dev.langchain4j.agent.tool.P;
        import dev.langchain4j.agent.tool.Tool;
        import java.time.LocalDateTime;
        import java.time.ZoneId;
        import java.time.ZoneOffset;
        import java.util.UUID;

        public class Tools {
          private final Backend backend = new Backend();
          private final ZoneId zone = ZoneId.of(System.getenv().getOrDefault("ROBIN_TZ", "Europe/Paris"));

          @Tool("Sets a reminder at a local time")
          public String setReminder(@P("what to remind") String text,
                                    @P("when, local time like 2025-10-31T15:00") String when) {
            String id = UUID.randomUUID().toString();
            this.backend.schedule(id, text,
                LocalDateTime.parse(when).toInstant(ZoneOffset.UTC));
            return "Reminder set (" + id + ")";
          }
        }
        """);
    Transformation t =
        TestRepos.transform(new TZReceiptStrategy(), dir, TestRepos.robinEvidence())
            .get("src/main/java/robin/Tools.java");
    assertTrue(
        t.source()
            .contains(
                """
            var receipt = this.backend.schedule(id, text,
                LocalDateTime.parse(when).atZone(zone).toInstant());
            // Report success only once the confirmation is in; wait for it at most 30 s.
            try {
              receipt.get(30, TimeUnit.SECONDS);
        """),
        t.source());
    assertFalse(
        t.source().contains("import java.time.ZoneOffset;"), "the import left unused is dropped");
    assertEquals(2, t.changes().size(), t.changes().toString());
  }

  @Test
  void anExecutorsScheduleIsNotAReceiptEvenWhenARepositoryMethodHasThatName() throws Exception {
    TestRepos.write(
        dir,
        "src/s/Backend.java",
        """
        package s;

        import java.util.concurrent.CompletableFuture;

        interface Backend {
          CompletableFuture<Receipt> schedule(String what);

          record Receipt(String id) {}
        }
        """,
        "src/s/Ticker.java",
        """
        package s;

        import java.util.concurrent.Executors;
        import java.util.concurrent.ScheduledExecutorService;
        import java.util.concurrent.TimeUnit;

        class Ticker {
          private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

          String start() {
            timer.schedule(() -> System.out.println("tick"), 1, TimeUnit.SECONDS);
            return "Started";
          }
        }
        """);
    assertFalse(
        TestRepos.transform(new TZReceiptStrategy(), dir, TestRepos.robinEvidence())
            .containsKey("src/s/Ticker.java"));
  }

  @Test
  void aCrlfFileStaysCrlf() throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    Path service = repo.resolve("src/main/java/com/example/reminders/ReminderService.java");
    Files.writeString(service, Files.readString(service).replace("\n", "\r\n"));
    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW);
    Proposal p = outcome.written().get(0);
    Path patched = TestRepos.appliedCopy(repo, p.diff(), dir);
    String text =
        Files.readString(
            patched.resolve("src/main/java/com/example/reminders/ReminderService.java"));
    assertTrue(text.contains("receipt.get(30, TimeUnit.SECONDS);\r\n"), text);
    assertFalse(text.replace("\r\n", "").contains("\n"), "every line break is CRLF");
  }

  @Test
  void scoresOnlyWithEvidenceAndHotspots() throws Exception {
    List<Hotspot> hotspots = HotspotScanner.scan(TestRepos.copy("receipt-service", dir));
    TZReceiptStrategy s = new TZReceiptStrategy();
    assertEquals(1.0, s.score(TestRepos.robinEvidence(), hotspots));
    assertEquals(0.0, s.score(Evidence.none(), hotspots));
    assertEquals(0.0, s.score(TestRepos.failureEvidence(), hotspots));
    assertEquals(0.0, s.score(TestRepos.robinEvidence(), List.of()));
    Evidence half =
        Evidence.builder()
            .thorns("tool.x.premature:fail", 1)
            .thorns("tool.y:fail", 3)
            .topThorn("tool.y:fail", 2.0)
            .build();
    Hotspot one = new Hotspot("A.java", 1, Category.NAIVE_TIME, "LocalDateTime x;");
    assertEquals(0.167, s.score(half, List.of(one)), "0.25 of the thorns, a third of the reach");
  }

  /** The receipt-service's classes, driven through a backend the test controls. */
  private record Call(
      String result, boolean confirmedWhenReturned, Instant scheduledAt, Duration took) {}

  private static final class Reminders {
    private final Class<?> backend;
    private final Class<?> service;
    private final Class<?> receipt;

    Reminders(ClassLoader loader) throws ClassNotFoundException {
      backend = loader.loadClass("com.example.reminders.ReminderBackend");
      service = loader.loadClass("com.example.reminders.ReminderService");
      receipt = loader.loadClass("com.example.reminders.Receipt");
    }

    /**
     * Sets a reminder at 15:00 Paris time; the receipt comes after {@code delay}, or never when
     * null.
     */
    // the receipt is scheduled and forgotten, as a real backend's callback is; the test reads
    // future
    @SuppressWarnings("FutureReturnValueIgnored")
    Call set(Duration delay) throws Exception {
      CompletableFuture<Object> future = new CompletableFuture<>();
      AtomicReference<Instant> at = new AtomicReference<>();
      Object backendProxy =
          Proxy.newProxyInstance(
              backend.getClassLoader(),
              new Class<?>[] {backend},
              (proxy, method, args) -> {
                if (!method.getName().equals("schedule")) {
                  return method.invoke(this, args);
                }
                at.set((Instant) args[2]);
                if (delay != null) {
                  Object r =
                      receipt
                          .getConstructor(String.class, Instant.class)
                          .newInstance(args[0], Instant.now());
                  CONFIRMER.schedule(
                      () -> future.complete(r), delay.toMillis(), TimeUnit.MILLISECONDS);
                }
                return future;
              });
      return call(backendProxy, future, at);
    }

    /** Sets a reminder with a backend that fails to confirm. */
    Call failing() throws Exception {
      CompletableFuture<Object> future =
          CompletableFuture.failedFuture(new IllegalStateException("backend down"));
      AtomicReference<Instant> at = new AtomicReference<>();
      Object backendProxy =
          Proxy.newProxyInstance(
              backend.getClassLoader(), new Class<?>[] {backend}, (proxy, method, args) -> future);
      return call(backendProxy, future, at);
    }

    private Call call(
        Object backendProxy, CompletableFuture<Object> future, AtomicReference<Instant> at)
        throws Exception {
      Object s =
          service
              .getConstructor(backend, ZoneId.class)
              .newInstance(backendProxy, ZoneId.of("Europe/Paris"));
      long start = System.nanoTime();
      String result =
          (String)
              service
                  .getMethod("setReminder", String.class, String.class, String.class)
                  .invoke(s, "r1", "stretch", "2025-10-31T15:00");
      boolean done = future.isDone();
      return new Call(result, done, at.get(), Duration.ofNanos(System.nanoTime() - start));
    }
  }

  private static Instant meetingStart(ClassLoader loader, ZoneId zone) throws Exception {
    Class<?> planner = loader.loadClass("org.acme.meetings.MeetingPlanner");
    Object meeting =
        planner
            .getMethod("plan", String.class, String.class, int.class, ZoneId.class)
            .invoke(
                planner.getConstructor().newInstance(), "standup", "2025-07-01T09:30", 15, zone);
    return (Instant) meeting.getClass().getMethod("start").invoke(meeting);
  }
}
