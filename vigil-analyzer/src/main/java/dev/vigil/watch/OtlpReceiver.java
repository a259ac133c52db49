package dev.vigil.watch;

import com.google.protobuf.InvalidProtocolBufferException;
import com.sun.net.httpserver.HttpExchange;
import dev.vigil.ingest.otlp.OtlpFormatException;
import dev.vigil.ingest.otlp.OtlpJson;
import dev.vigil.ingest.otlp.OtlpSpool;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

/**
 * {@code watch --otlp-port}: an OTLP/HTTP receiver of traces (docs/OPENTELEMETRY.md#the-receiver).
 * {@code POST /v1/traces} with a body of {@code application/x-protobuf} or {@code
 * application/json}, optionally gzip-encoded, decoded by the protocol's own classes; each request
 * accepted is in the {@link OtlpSpool} before it is answered 200. A body that is not a trace export
 * request is 400, one over {@link #MAX_BODY} bytes 413, another content type 415, another method
 * 405, another path 404, and a spool that cannot be written 503 (the exporter retries); each with a
 * one-line reason, and the receiver goes on serving.
 */
public final class OtlpReceiver implements AutoCloseable {
  /** The largest body accepted, after decompression. */
  public static final int MAX_BODY = 16 * 1024 * 1024;

  /** Requests read at once: a slow client holds one thread, the others go on serving. */
  static final int THREADS = 8;

  private static final String PROTOBUF = "application/x-protobuf";
  private static final String JSON = "application/json";

  private final LoopbackServer http;
  private final AtomicLong accepted = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  private OtlpReceiver(LoopbackServer http) {
    this.http = http;
  }

  /**
   * Starts receiving on {@code host:port} (0: any free port) into {@code spool}.
   *
   * @throws IllegalArgumentException naming the address when it is in use or cannot be bound
   */
  public static OtlpReceiver start(String host, int port, OtlpSpool spool) throws IOException {
    LoopbackServer http = LoopbackServer.bind("--otlp-port", host, port, THREADS, "vigil-otlp");
    OtlpReceiver receiver = new OtlpReceiver(http);
    http.server().createContext("/", ex -> receiver.refuse(ex, 404, "not found: " + path(ex)));
    http.server().createContext("/v1/traces", ex -> receiver.traces(ex, spool));
    http.server().start();
    return receiver;
  }

  /** The port it listens on. */
  public int port() {
    return http.port();
  }

  /** Requests accepted so far. */
  public long accepted() {
    return accepted.get();
  }

  /** Requests refused so far. */
  public long refused() {
    return refused.get();
  }

  private static String path(HttpExchange ex) {
    return ex.getRequestURI().getPath();
  }

  private void traces(HttpExchange ex, OtlpSpool spool) throws IOException {
    if (!path(ex).equals("/v1/traces")) {
      refuse(ex, 404, "not found: " + path(ex));
      return;
    }
    if (!ex.getRequestMethod().equals("POST")) {
      ex.getResponseHeaders().add("Allow", "POST");
      refuse(
          ex, 405, "method " + ex.getRequestMethod() + " not allowed: POST a trace export request");
      return;
    }
    String type = mediaType(ex.getRequestHeaders().getFirst("Content-Type"));
    if (!type.equals(PROTOBUF) && !type.equals(JSON)) {
      refuse(
          ex,
          415,
          "Content-Type "
              + (type.isEmpty() ? "(none)" : type)
              + " is not "
              + PROTOBUF
              + " or "
              + JSON);
      return;
    }
    byte[] body;
    try {
      body = body(ex);
    } catch (TooLarge e) {
      drain(ex.getRequestBody());
      refuse(ex, 413, "the body is over " + MAX_BODY + " bytes");
      return;
    } catch (IOException e) {
      refuse(ex, 400, "the body could not be read: " + e.getMessage());
      return;
    }
    ExportTraceServiceRequest request;
    try {
      request = decode(type, body);
    } catch (OtlpFormatException e) {
      refuse(ex, 400, e.getMessage());
      return;
    }
    try {
      spool.append(request.toByteArray());
    } catch (RuntimeException e) {
      refuse(ex, 503, "the spool cannot be written: " + e.getMessage());
      return;
    }
    accepted.incrementAndGet();
    // an empty ExportTraceServiceResponse: nothing rejected
    answer(
        ex, 200, type, type.equals(PROTOBUF) ? new byte[0] : "{}".getBytes(StandardCharsets.UTF_8));
  }

  /** The request a body of {@code type} holds. */
  private static ExportTraceServiceRequest decode(String type, byte[] body)
      throws OtlpFormatException {
    if (type.equals(JSON)) {
      return OtlpJson.read(body, 0, body.length);
    }
    try {
      return ExportTraceServiceRequest.parseFrom(body);
    } catch (InvalidProtocolBufferException e) {
      throw new OtlpFormatException(
          "otlp_not_traces", "not an OTLP trace export request in protobuf: " + e.getMessage());
    }
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semi = contentType.indexOf(';');
    return (semi < 0 ? contentType : contentType.substring(0, semi))
        .strip()
        .toLowerCase(Locale.ROOT);
  }

  /** The body, gunzipped when so encoded, at most {@link #MAX_BODY} bytes. */
  private static byte[] body(HttpExchange ex) throws IOException {
    String length = ex.getRequestHeaders().getFirst("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > MAX_BODY) {
          throw new TooLarge();
        }
      } catch (NumberFormatException e) {
        throw new IOException("Content-Length " + length + " is not a number", e);
      }
    }
    String encoding = ex.getRequestHeaders().getFirst("Content-Encoding");
    InputStream in = ex.getRequestBody();
    if (encoding != null && encoding.strip().equalsIgnoreCase("gzip")) {
      in = new GZIPInputStream(in);
    } else if (encoding != null
        && !encoding.isBlank()
        && !encoding.strip().equalsIgnoreCase("identity")) {
      throw new IOException("Content-Encoding " + encoding + " is not gzip");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[64 * 1024];
    for (int r; (r = in.read(buf)) >= 0; ) {
      if (out.size() + r > MAX_BODY) {
        throw new TooLarge();
      }
      out.write(buf, 0, r);
    }
    return out.toByteArray();
  }

  /** Most a refused body is read to its end, so that its sender reads the answer. */
  static final long MAX_DRAIN = 1L << 30;

  /** Reads and drops what is left of a refused body, up to {@link #MAX_DRAIN}. */
  private static void drain(InputStream in) {
    byte[] buf = new byte[64 * 1024];
    long left = MAX_DRAIN;
    try {
      for (int r; left > 0 && (r = in.read(buf)) >= 0; ) {
        left -= r;
      }
    } catch (IOException e) {
      // the sender went away: nothing to answer
    }
  }

  /** A body over the limit. */
  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }

  private void refuse(HttpExchange ex, int status, String reason) throws IOException {
    refused.incrementAndGet();
    answer(
        ex,
        status,
        "text/plain; charset=utf-8",
        (oneLine(reason) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  private static String oneLine(String s) {
    String line = String.valueOf(s).replaceAll("\\s+", " ").strip();
    return line.length() <= 300 ? line : line.substring(0, 300) + "…";
  }

  private static void answer(HttpExchange ex, int status, String type, byte[] body)
      throws IOException {
    try (ex) {
      ex.getResponseHeaders().set("Content-Type", type);
      if (status >= 400) {
        ex.getResponseHeaders()
            .set("Connection", "close"); // the rest of a refused body is not read
      }
      ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }

  /** Stops answering; requests in flight are finished or cut. */
  @Override
  public void close() {
    http.stop(1);
  }
}
