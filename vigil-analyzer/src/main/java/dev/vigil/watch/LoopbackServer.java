package dev.vigil.watch;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK HTTP server as {@code watch}'s listeners use it ({@link HttpEndpoint}, {@link
 * OtlpReceiver}): bound to one address, served by a fixed number of daemon threads; an address in
 * use is bad input naming the option that asked for it.
 *
 * @param server the server, not started
 * @param threads its threads, to stop with it
 */
record LoopbackServer(HttpServer server, ExecutorService threads) {
  /**
   * Binds {@code host:port}.
   *
   * @param option the command-line option that names the port, for the message
   * @throws IllegalArgumentException naming the option and address when it cannot be bound
   */
  static LoopbackServer bind(String option, String host, int port, int threadCount, String name)
      throws IOException {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 64);
    } catch (BindException e) {
      throw new IllegalArgumentException(
          option + " " + port + " on " + host + " cannot be bound: " + e.getMessage(), e);
    }
    AtomicInteger n = new AtomicInteger();
    ExecutorService threads =
        Executors.newFixedThreadPool(
            threadCount,
            r -> {
              Thread t = new Thread(r, name + "-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    server.setExecutor(threads);
    return new LoopbackServer(server, threads);
  }

  /** The port it is bound to. */
  int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving, waiting at most {@code seconds} for exchanges in flight. */
  void stop(int seconds) {
    server.stop(seconds);
    threads.shutdownNow();
  }
}
