package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch}'s usage errors: exit 2, with a message naming the option and the value. (A queue
 * the agent has not created yet is waited for, not an error: {@code WatcherTest}, {@code WatchIT}.)
 */
class WatchCommandTest {
  @TempDir Path tmp;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int watch(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "watch";
    System.arraycopy(args, 0, all, 1, args.length);
    return Main.run(
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        all);
  }

  private String queue() {
    return tmp.resolve("queue").toString();
  }

  @Test
  void aBadDurationExitsTwoNamingTheOption() {
    assertEquals(2, watch("--queue", queue(), "--every", "10 minutes"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("--every \"10 minutes\" is not a duration"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aBadThornRateExitsTwoNamingTheOption() {
    assertEquals(2, watch("--queue", queue(), "--on-thorns", "three/1m"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("--on-thorns \"three/1m\": K must be a whole number"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aNonPositiveEventCountExitsTwo() {
    assertEquals(2, watch("--queue", queue(), "--after-events", "0"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("--after-events must be a positive number of events, not 0"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aQueuePathThatIsAFileExitsTwoNamingThePath() throws Exception {
    Files.writeString(tmp.resolve("queue"), "not a directory");
    assertEquals(2, watch("--queue", queue(), "--every", "1m"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("queue path " + queue() + " is not a directory"),
        err.toString(StandardCharsets.UTF_8));
  }

  /** Runs {@code watch} with {@code option} set to a port that is taken: exit 2, naming it. */
  private void withPortTaken(String option) throws Exception {
    try (java.net.ServerSocket taken =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertEquals(
          2,
          watch(
              "--queue",
              queue(),
              "--every",
              "1h",
              option,
              String.valueOf(port),
              "--emobank",
              tmp.resolve("bank").toString()));
      String printed = err.toString(StandardCharsets.UTF_8);
      assertTrue(printed.contains(option + " " + port + " on 127.0.0.1 cannot be bound"), printed);
    }
  }

  @Test
  void anHttpPortInUseOrOutOfRangeExitsTwoNamingIt() throws Exception {
    withPortTaken("--http-port");
    assertEquals(2, watch("--queue", queue(), "--http-port", "70000"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("--http-port must be a port number, 0 to 65535, not 70000"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anOtlpPortInUseExitsTwoNamingItAndNeedsAQueue() throws Exception {
    withPortTaken("--otlp-port");
    assertEquals(2, watch("--bootstrap", "localhost:9092", "--otlp-port", "4318"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("--otlp-port needs --queue"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anOtlpEndpointThatIsNotHttpExitsTwoNamingIt() {
    assertEquals(2, watch("--queue", queue(), "--otlp-endpoint", "ftp://collector:4318"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("--otlp-endpoint ftp://collector:4318 is not an http:// or https:// URL"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void eventsAndNowAreNotWatchOptions() {
    assertEquals(2, watch("--events", "x.jsonl", "--every", "1m"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("Unknown options: '--events'"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, watch("--every", "1m"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("give exactly one of --queue DIR (one host) and --bootstrap HOST:PORT"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, watch("--bootstrap", "kafka", "--every", "1m"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("--bootstrap \"kafka\": \"kafka\" is not HOST:PORT"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, watch("--queue", queue(), "--events", "x.jsonl"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("Unknown options: '--events'"),
        err.toString(StandardCharsets.UTF_8));
    err.reset();
    assertEquals(2, watch("--queue", queue(), "--now", "2026-11-22T12:00:00Z"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("Unknown options: '--now'"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void helpListsThePassOptionsSharedWithRunButNotItsInput() {
    ByteArrayOutputStream help = new ByteArrayOutputStream();
    assertEquals(
        0,
        Main.run(
            new PrintStream(help, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "watch",
            "--help"));
    String text = help.toString(StandardCharsets.UTF_8);
    assertTrue(
        text.contains("--emobank=DIR")
            && text.contains("--half-life-hours=H")
            && text.contains("--every"),
        text);
    assertFalse(text.contains("--events") || text.contains("--now"), text);
  }
}
