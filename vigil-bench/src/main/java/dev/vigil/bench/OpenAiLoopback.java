package dev.vigil.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The model of the Spring Boot start-up figure ({@link BootStartup}): a loopback HTTP server
 * speaking OpenAI chat-completions. A conversation that has no tool result yet is answered with one
 * call of the application's booking tool; once the tool's result is in the conversation, the answer
 * is text. It counts the tool results it was sent, and those that hold the booking's pick-up date
 * as ISO text, so the benchmark knows each request really ran the tool.
 */
final class OpenAiLoopback implements AutoCloseable {
  /** The tool the model asks for, and its arguments. */
  static final String TOOL = "findBooking";

  private static final String ARGUMENTS = "{\"number\":\"WD-1042\",\"surname\":\"Okafor\"}";

  /** What the booking's tool result holds when the tool ran: its pick-up date. */
  static final String PICK_UP = "2026-12-18";

  private static final ObjectMapper JSON = new ObjectMapper();
  private final HttpServer server;
  private final AtomicInteger toolResults = new AtomicInteger();
  private final AtomicInteger bookingsSeen = new AtomicInteger();
  private final AtomicInteger calls = new AtomicInteger();

  OpenAiLoopback() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          try (exchange) {
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            String toolResult = null;
            for (JsonNode m : request.path("messages")) {
              if (m.path("role").asText().equals("tool")) {
                toolResult = m.path("content").asText();
              }
            }
            ObjectNode reply;
            if (toolResult == null) {
              reply = toolCall();
            } else {
              toolResults.incrementAndGet();
              if (toolResult.contains(PICK_UP)) {
                bookingsSeen.incrementAndGet();
              }
              reply = answer("Your compact car is booked from 18 to 27 December.");
            }
            byte[] body = JSON.writeValueAsBytes(reply);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          }
        });
    server.start();
  }

  /** The base URL the application's OpenAI chat model is given. */
  String baseUrl() {
    return "http://"
        + server.getAddress().getAddress().getHostAddress()
        + ":"
        + server.getAddress().getPort()
        + "/v1";
  }

  /** Tool results sent back to the model so far. */
  int toolResults() {
    return toolResults.get();
  }

  /** Tool results that held the booking (its pick-up date as ISO text). */
  int bookingsSeen() {
    return bookingsSeen.get();
  }

  private ObjectNode toolCall() {
    ObjectNode reply = envelope("tool_calls");
    ObjectNode message = (ObjectNode) reply.at("/choices/0/message");
    message.putNull("content");
    ObjectNode call = message.putArray("tool_calls").addObject();
    call.put("id", "call_" + calls.incrementAndGet()).put("type", "function");
    call.putObject("function").put("name", TOOL).put("arguments", ARGUMENTS);
    return reply;
  }

  private static ObjectNode answer(String text) {
    ObjectNode reply = envelope("stop");
    ((ObjectNode) reply.at("/choices/0/message")).put("content", text);
    return reply;
  }

  private static ObjectNode envelope(String finish) {
    ObjectNode reply = JSON.createObjectNode();
    reply
        .put("id", "chatcmpl-loopback")
        .put("object", "chat.completion")
        .put("created", 1_700_000_000L)
        .put("model", "gpt-4o-mini");
    ObjectNode choice = reply.putArray("choices").addObject();
    choice.put("index", 0).put("finish_reason", finish);
    choice.putObject("message").put("role", "assistant");
    reply
        .putObject("usage")
        .put("prompt_tokens", 120)
        .put("completion_tokens", 24)
        .put("total_tokens", 144);
    return reply;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
