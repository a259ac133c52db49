package dev.vigil.kafka;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The network between Kafka clients and the broker, as a test can break it: a TCP relay on a port
 * of its own, which the broker advertises as the address of one of its listeners, so that every
 * connection a client makes to the cluster after its bootstrap goes through it too. It can be
 * paused (the bytes stop, connections stay open: a broker frozen in a stop-the-world pause or
 * {@code SIGSTOP}), cut (every connection is closed and new ones are closed at once: a network
 * partition between the clients behind it and the broker) and healed.
 */
final class Link implements AutoCloseable {
  private final ServerSocket server;
  private final List<Socket> open = new CopyOnWriteArrayList<>();
  private final Object gate = new Object();
  private final AtomicLong connections = new AtomicLong();
  private volatile int target;
  private volatile boolean paused;
  private volatile boolean cut;
  private volatile boolean closed;

  private Link() throws IOException {
    server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(this::accept, "link-" + server.getLocalPort());
    accepting.setDaemon(true);
    accepting.start();
  }

  /** A link listening now, relaying to a port set later ({@link #to}). */
  static Link open() throws IOException {
    return new Link();
  }

  /** The port clients connect to. */
  int port() {
    return server.getLocalPort();
  }

  /** Relays to {@code port} on the loopback address from now on. */
  void to(int port) {
    target = port;
  }

  /** Connections accepted so far (the clients behind it did use it). */
  long connections() {
    return connections.get();
  }

  /** Holds every byte in both directions until {@link #resume()}; connections stay open. */
  void pause() {
    paused = true;
  }

  /** Lets the held bytes through again. */
  void resume() {
    synchronized (gate) {
      paused = false;
      gate.notifyAll();
    }
  }

  /** Closes every connection and closes new ones at once, until {@link #heal()}. */
  void cut() {
    cut = true;
    for (Socket s : open) {
      closeQuietly(s);
    }
  }

  /** Accepts and relays connections again. */
  void heal() {
    cut = false;
  }

  private void accept() {
    while (!closed) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      connections.incrementAndGet();
      if (cut || target == 0) {
        closeQuietly(client);
        continue;
      }
      try {
        Socket broker = new Socket();
        broker.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target));
        open.add(client);
        open.add(broker);
        relay(client, broker);
        relay(broker, client);
      } catch (IOException brokerDown) {
        closeQuietly(client);
      }
    }
  }

  /** Copies {@code from} to {@code to} on a thread of its own, waiting while paused. */
  private void relay(Socket from, Socket to) {
    Thread t =
        new Thread(
            () -> {
              byte[] buffer = new byte[16 * 1024];
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                for (int n = in.read(buffer); n >= 0 && !cut; n = in.read(buffer)) {
                  awaitResumed();
                  if (cut) {
                    break;
                  }
                  out.write(buffer, 0, n);
                  out.flush();
                }
              } catch (IOException | InterruptedException ended) {
                // the other side closed, or the link was cut or closed
              } finally {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
              }
            },
            "link-relay-" + port());
    t.setDaemon(true);
    t.start();
  }

  private void awaitResumed() throws InterruptedException {
    synchronized (gate) {
      while (paused && !closed) {
        gate.wait();
      }
    }
  }

  private static void closeQuietly(Socket s) {
    try {
      s.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() {
    closed = true;
    resume();
    cut();
    try {
      server.close();
    } catch (IOException ignored) {
      // already closed
    }
  }
}
