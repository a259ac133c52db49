package dev.vigil.report;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real headless Chromium (Debian's {@code chromium}), driven over the DevTools protocol with the
 * JDK's WebSocket client: nothing is downloaded at run time. {@link #open} loads a page and records
 * what the page logged and fetched; {@link #evaluate} asks the DOM; {@link #screenshot} takes a PNG
 * of the viewport. {@link ChromiumExtension} installs the browser when it is missing and hands one
 * to the tests.
 */
public final class Chromium implements AutoCloseable {
  /** Debian's browser. */
  public static final Path BINARY = Path.of("/usr/bin/chromium");

  /**
   * The viewport: wide enough for the report's three cards side by side, tall enough for its
   * timeline.
   */
  static final int WIDTH = 1280;

  static final int HEIGHT = 1080;

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final Process process;
  private final WebSocket socket;
  private final AtomicLong ids = new AtomicLong();
  private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
  private final List<JsonNode> events = new CopyOnWriteArrayList<>();

  private Chromium(Process process, WebSocket socket) {
    this.process = process;
    this.socket = socket;
  }

  /**
   * Starts the browser with its profile in {@code profile} (a fresh directory) and attaches to its
   * page.
   */
  public static Chromium start(Path profile) throws IOException, InterruptedException {
    Files.createDirectories(profile);
    Process p =
        new ProcessBuilder(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--no-default-browser-check",
                "--hide-scrollbars",
                "--force-device-scale-factor=1",
                "--window-size=" + WIDTH + "," + HEIGHT,
                "--user-data-dir=" + profile,
                "--remote-debugging-port=0",
                "about:blank")
            .redirectErrorStream(true)
            .redirectOutput(profile.resolveSibling(profile.getFileName() + ".log").toFile())
            .start();
    Path portFile = profile.resolve("DevToolsActivePort");
    await("Chromium's DevToolsActivePort in " + profile)
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () ->
                !p.isAlive()
                    || (Files.exists(portFile) && Files.readAllLines(portFile).size() >= 2));
    if (!p.isAlive()) {
      throw new IllegalStateException(
          "Chromium exited with "
              + p.exitValue()
              + "; see "
              + profile.resolveSibling(profile.getFileName() + ".log"));
    }
    int port = Integer.parseInt(Files.readAllLines(portFile).get(0).strip());
    HttpClient http = HttpClient.newHttpClient();
    String list =
        http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
    String pageUrl = null;
    for (JsonNode target : MAPPER.readTree(list)) {
      if (target.path("type").asText().equals("page")) {
        pageUrl = target.get("webSocketDebuggerUrl").asText();
      }
    }
    if (pageUrl == null) {
      p.destroyForcibly();
      throw new IllegalStateException("Chromium has no page to attach to: " + list);
    }
    Listener listener = new Listener();
    WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create(pageUrl), listener).join();
    Chromium c = new Chromium(p, ws);
    listener.owner = c;
    for (String domain : List.of("Page", "Runtime", "Log", "Network")) {
      c.send(domain + ".enable", MAPPER.createObjectNode());
    }
    c.send(
        "Emulation.setDeviceMetricsOverride",
        MAPPER
            .createObjectNode()
            .put("width", WIDTH)
            .put("height", HEIGHT)
            .put("deviceScaleFactor", 1)
            .put("mobile", false));
    return c;
  }

  /** What a page did while it loaded. */
  public record Load(List<String> errors, List<String> requests) {}

  /**
   * Loads a file and waits for its load event.
   *
   * @return the errors it logged (console errors, uncaught exceptions, refused loads) and the URLs
   *     it fetched that are neither the file itself nor {@code data:}
   */
  public Load open(Path file) {
    events.clear();
    String url = file.toUri().toString();
    send("Page.navigate", MAPPER.createObjectNode().put("url", url));
    await("the load event of " + file)
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> loadedAfterNavigating(url));
    List<String> errors = new ArrayList<>();
    List<String> requests = new ArrayList<>();
    for (JsonNode e : events) {
      JsonNode p = e.path("params");
      switch (e.path("method").asText()) {
        case "Runtime.consoleAPICalled" -> {
          if (p.path("type").asText().matches("error|assert")) {
            errors.add("console." + p.path("type").asText() + ": " + p.path("args"));
          }
        }
        case "Runtime.exceptionThrown" -> errors.add("exception: " + p.path("exceptionDetails"));
        case "Log.entryAdded" -> {
          if (p.path("entry").path("level").asText().equals("error")) {
            errors.add("log: " + p.path("entry").path("text").asText());
          }
        }
        case "Network.requestWillBeSent" -> {
          String u = p.path("request").path("url").asText();
          if (!u.equals(url) && !u.startsWith("data:")) {
            requests.add(u);
          }
        }
        default -> {}
      }
    }
    return new Load(errors, requests);
  }

  /** Whether the page's main frame navigated to {@code url} and then fired its load event. */
  private boolean loadedAfterNavigating(String url) {
    boolean navigated = false;
    for (JsonNode e : events) {
      String method = e.path("method").asText();
      JsonNode frame = e.path("params").path("frame");
      if (method.equals("Page.frameNavigated")
          && !frame.has("parentId")
          && frame.path("url").asText().equals(url)) {
        navigated = true;
      } else if (navigated && method.equals("Page.loadEventFired")) {
        return true;
      }
    }
    return false;
  }

  /** The value of a JavaScript expression in the page (JSON-able). */
  public JsonNode evaluate(String expression) {
    JsonNode r =
        send(
            "Runtime.evaluate",
            MAPPER.createObjectNode().put("expression", expression).put("returnByValue", true));
    if (r.has("exceptionDetails")) {
      throw new IllegalStateException(expression + " threw " + r.get("exceptionDetails"));
    }
    return r.path("result").path("value");
  }

  /** A PNG of the viewport. */
  public byte[] screenshot() {
    JsonNode r = send("Page.captureScreenshot", MAPPER.createObjectNode().put("format", "png"));
    return Base64.getDecoder().decode(r.get("data").asText());
  }

  private JsonNode send(String method, ObjectNode params) {
    long id = ids.incrementAndGet();
    CompletableFuture<JsonNode> reply = new CompletableFuture<>();
    pending.put(id, reply);
    ObjectNode msg = MAPPER.createObjectNode().put("id", id).put("method", method);
    msg.set("params", params);
    socket.sendText(msg.toString(), true).join();
    JsonNode r;
    try {
      r = reply.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new IllegalStateException(method + ": no answer from Chromium within " + WAIT, e);
    }
    if (r.has("error")) {
      throw new IllegalStateException(method + " failed: " + r.get("error"));
    }
    return r.path("result");
  }

  @Override
  public void close() {
    try {
      socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      // the browser goes anyway
    }
    List<ProcessHandle> helpers = process.descendants().toList(); // renderer, GPU, network service…
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      for (ProcessHandle h : helpers) { // gone before the profile directory is removed
        h.destroyForcibly();
        h.onExit().get(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // a helper that outlives the wait is left to the OS; the profile's removal tolerates it
    }
  }

  /** Reassembles the socket's messages: answers complete their call, events are recorded. */
  private static final class Listener implements WebSocket.Listener {
    private final StringBuilder partial = new StringBuilder();
    private Chromium owner;

    @Override
    public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
      partial.append(data);
      if (last) {
        String text = partial.toString();
        partial.setLength(0);
        try {
          JsonNode msg = MAPPER.readTree(text.getBytes(StandardCharsets.UTF_8));
          if (msg.has("id")) {
            CompletableFuture<JsonNode> f = owner.pending.remove(msg.get("id").asLong());
            if (f != null) {
              f.complete(msg);
            }
          } else {
            owner.events.add(msg);
          }
        } catch (IOException e) {
          throw new IllegalStateException("not JSON from Chromium: " + text, e);
        }
      }
      ws.request(1);
      return null;
    }
  }
}
