package dev.vigil.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Start-up of a Spring Boot LangChain4j application as its users see it (docs/BENCHMARKS.md): the
 * support agent of {@code vigil-bench/support-agent} is launched with {@code java -jar}, its OpenAI
 * chat model pointed at an {@link OpenAiLoopback}, and the time is taken from the launch to the
 * first successful response to a chat request whose answer needs the booking tool (the request is
 * retried every {@value #POLL_MS} ms while nothing listens yet). The configurations are launched in
 * turn, round after round; the first rounds are discarded as warm-up of the file cache, and the
 * median of each configuration is kept. Each launch is stopped with SIGTERM after its answer, and
 * must have sent the model the tool's result; with Vigil its queue must hold the tool call, so the
 * figure includes recording it.
 */
final class BootStartup {
  /**
   * One configuration's figure: the median of the {@code measured} launches, and what all its
   * {@code launches} (discarded ones included) showed: tool results the model was sent with the
   * booking, calls Vigil recorded.
   */
  record Figure(
      String name,
      double medianMs,
      int measured,
      int launches,
      int toolResults,
      int recorded,
      String failure) {}

  /** The event kind Vigil gives the tool ({@code @Tool} method {@code findBooking}). */
  static final String TOOL_KIND = "tool.find_booking";

  static final long POLL_MS = 20;
  private static final long PATIENCE_MS = 180_000;

  private BootStartup() {}

  /**
   * Measures each configuration.
   *
   * @param configurations name to the JVM options before {@code -jar} (none for plain), given the
   *     launch's own queue directory (where Vigil, when it is one of the options, writes)
   * @param discarded rounds of warm-up, not counted
   * @param rounds measured rounds
   */
  static List<Figure> measure(
      String java,
      Path app,
      Map<String, Function<Path, List<String>>> configurations,
      int discarded,
      int rounds,
      Path work)
      throws Exception {
    Map<String, List<Double>> samples = new LinkedHashMap<>();
    Map<String, int[]> checks = new LinkedHashMap<>();
    Map<String, String> failures = new LinkedHashMap<>();
    configurations
        .keySet()
        .forEach(
            k -> {
              samples.put(k, new ArrayList<>());
              checks.put(k, new int[2]);
            });
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try (OpenAiLoopback model = new OpenAiLoopback()) {
      int launch = 0;
      for (int round = 0; round < discarded + rounds; round++) {
        for (Map.Entry<String, Function<Path, List<String>>> c : configurations.entrySet()) {
          if (failures.containsKey(c.getKey())) {
            continue;
          }
          Path dir = Files.createDirectories(work.resolve("boot-" + c.getKey() + "-" + (++launch)));
          Path queue = dir.resolve("vigil-queue");
          List<String> cmd = new ArrayList<>();
          cmd.add(java);
          cmd.addAll(c.getValue().apply(queue));
          cmd.addAll(
              List.of(
                  "-jar",
                  app.toString(),
                  "--server.port=" + freePort(),
                  "--langchain4j.open-ai.chat-model.base-url=" + model.baseUrl()));
          int resultsBefore = model.bookingsSeen();
          try {
            double ms = launch(http, cmd, dir, "conversation-" + launch);
            int[] check = checks.get(c.getKey());
            check[0] += model.bookingsSeen() - resultsBefore;
            check[1] += RecordedCalls.count(queue, TOOL_KIND);
            if (round >= discarded) {
              samples.get(c.getKey()).add(ms);
            }
          } catch (IllegalStateException e) {
            failures.put(c.getKey(), e.getMessage());
          }
        }
      }
    }
    List<Figure> out = new ArrayList<>();
    int launches = discarded + rounds;
    samples.forEach(
        (name, list) ->
            out.add(
                new Figure(
                    name,
                    median(list),
                    list.size(),
                    launches,
                    checks.get(name)[0],
                    checks.get(name)[1],
                    failures.get(name))));
    return out;
  }

  /**
   * One launch: milliseconds from the launch to the first served chat answer; then the application
   * is stopped.
   */
  private static double launch(HttpClient http, List<String> cmd, Path dir, String conversation)
      throws Exception {
    String port =
        cmd.stream()
            .filter(a -> a.startsWith("--server.port="))
            .findFirst()
            .orElseThrow()
            .substring(14);
    URI uri =
        URI.create(
            "http://127.0.0.1:"
                + port
                + "/support?conversation="
                + conversation
                + "&message="
                + URLEncoder.encode(
                    "When do I pick up my car? Booking WD-1042, surname Okafor.",
                    StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build();
    long start = System.nanoTime();
    Process p =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("app.log").toFile())
            .start();
    try {
      long deadline = start + TimeUnit.MILLISECONDS.toNanos(PATIENCE_MS);
      while (true) {
        if (!p.isAlive()) {
          throw new IllegalStateException(
              "the application exited ("
                  + p.exitValue()
                  + ") before it answered; see "
                  + dir.resolve("app.log"));
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "no answer within " + PATIENCE_MS + " ms; see " + dir.resolve("app.log"));
        }
        try {
          HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
          if (response.statusCode() == 200) {
            return (System.nanoTime() - start) / 1e6;
          }
          throw new IllegalStateException(
              "the chat request failed with HTTP "
                  + response.statusCode()
                  + ": "
                  + response.body()
                  + "; see "
                  + dir.resolve("app.log"));
        } catch (IOException notListeningYet) {
          Thread.sleep(POLL_MS);
        }
      }
    } finally {
      p.destroy(); // SIGTERM: Spring closes its context, an agent flushes what it holds
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor();
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static double median(List<Double> list) {
    if (list.isEmpty()) {
      return Double.NaN;
    }
    double[] v = list.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
