package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP server speaking the OpenAI chat-completions protocol with a script of replies:
 * each reply is either tool calls or a plain answer. It records every request body, so a test can
 * read what went back to the model. When the script runs out, it answers in words (the model stops
 * calling tools). A reply made with {@link #httpError} is sent as an HTTP error instead (a server
 * that fails).
 */
public final class ScriptedOpenAiServer implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final HttpServer server;
  private final Deque<ObjectNode> script;
  private final List<JsonNode> requests = Collections.synchronizedList(new ArrayList<>());
  private static final AtomicInteger CALL_IDS = new AtomicInteger();

  /** The field of a scripted reply that makes it an HTTP error with that status. */
  private static final String HTTP_STATUS = "x-scripted-http-status";

  /**
   * @param hold when not null, every reply waits until it is counted down (a server that hangs)
   */
  public ScriptedOpenAiServer(List<ObjectNode> replies, CountDownLatch hold) throws IOException {
    this(replies, hold, () -> {});
  }

  /**
   * @param hold when not null, every reply waits until it is counted down (a server that hangs)
   * @param onRequest runs as each request arrives, before the reply (a test advances its clock
   *     there: each answer takes that long)
   */
  public ScriptedOpenAiServer(List<ObjectNode> replies, CountDownLatch hold, Runnable onRequest)
      throws IOException {
    this.script = new ArrayDeque<>(replies);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          byte[] body;
          try (exchange) {
            requests.add(MAPPER.readTree(exchange.getRequestBody()));
            onRequest.run();
            if (hold != null) {
              hold.await(30, TimeUnit.SECONDS);
            }
            ObjectNode next;
            synchronized (script) {
              next = script.isEmpty() ? answer("Done.") : script.poll();
            }
            int status = 200;
            if (next.has(HTTP_STATUS)) {
              next = next.deepCopy();
              status = next.remove(HTTP_STATUS).asInt();
            }
            body = MAPPER.writeValueAsBytes(next);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    server.start();
  }

  /** The base URL to configure: {@code http://127.0.0.1:PORT/v1}. */
  public String baseUrl() {
    return "http://"
        + server.getAddress().getAddress().getHostAddress()
        + ":"
        + server.getAddress().getPort()
        + "/v1";
  }

  /** The request bodies received, in order. */
  public List<JsonNode> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** A reply calling one tool with JSON arguments. */
  public static ObjectNode toolCall(String name, String arguments) {
    ObjectNode reply = envelope("tool_calls");
    ObjectNode message = (ObjectNode) reply.at("/choices/0/message");
    message.putNull("content");
    ObjectNode call = message.putArray("tool_calls").addObject();
    call.put("id", "call_" + CALL_IDS.incrementAndGet()).put("type", "function");
    call.putObject("function").put("name", name).put("arguments", arguments);
    return reply;
  }

  /** A reply in words, with no tool call. */
  public static ObjectNode answer(String text) {
    ObjectNode reply = envelope("stop");
    ((ObjectNode) reply.at("/choices/0/message")).put("content", text);
    return reply;
  }

  /** A reply that is an HTTP error with this status and an OpenAI-style error body. */
  public static ObjectNode httpError(int status, String message) {
    ObjectNode reply = MAPPER.createObjectNode();
    reply.put(HTTP_STATUS, status);
    reply.putObject("error").put("message", message).put("type", "server_error");
    return reply;
  }

  /** The text of the user messages in request {@code i}. */
  public List<String> userMessagesIn(int i) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : requests().get(i).path("messages")) {
      if (m.path("role").asText().equals("user")) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  private static ObjectNode envelope(String finish) {
    ObjectNode reply = MAPPER.createObjectNode();
    reply
        .put("id", "chatcmpl-scripted")
        .put("object", "chat.completion")
        .put("created", 1_700_000_000L)
        .put("model", "scripted-model");
    ObjectNode choice = reply.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", finish);
    choice.putObject("message").put("role", "assistant");
    reply
        .putObject("usage")
        .put("prompt_tokens", 100)
        .put("completion_tokens", 20)
        .put("total_tokens", 120);
    return reply;
  }

  /** The text of every tool-result message the model was sent in request {@code i}. */
  public List<String> toolResultsIn(int i) {
    List<String> out = new ArrayList<>();
    for (JsonNode m : requests().get(i).path("messages")) {
      if (m.path("role").asText().equals("tool")) {
        out.add(m.path("content").asText());
      }
    }
    return out;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
