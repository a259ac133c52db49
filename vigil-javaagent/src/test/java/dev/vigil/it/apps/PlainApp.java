package dev.vigil.it.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** A hand-written agent without any framework: its methods are named by vigil.methods.include. */
public final class PlainApp {
  /**
   * The backend as the agent sees it; the include names this interface, the implementation matches.
   */
  public interface Backend {
    String send(String message);

    boolean confirm(String receipt);
  }

  /** The implementation (a subtype of the included interface). */
  public static final class HttpBackend implements Backend {
    @Override
    public String send(String message) {
      return "r-" + message.length();
    }

    @Override
    public boolean confirm(String receipt) {
      return receipt.startsWith("r-");
    }
  }

  /** A class named with [*]. */
  public static final class Clock {
    public String now(String zone) {
      return "12:00 " + zone;
    }

    public int hour() {
      return 12;
    }
  }

  /**
   * With the arguments {@code linger DIR}, it stays up after its calls until {@code DIR} holds no
   * spill file (at most {@link #LINGER_MS}): until its agent has opened the queue and imported
   * them.
   */
  public static void main(String[] args) throws Exception {
    Backend backend = new HttpBackend();
    String receipt = backend.send("tea at five");
    System.out.println(receipt + " " + backend.confirm(receipt));
    Clock clock = new Clock();
    System.out.println(clock.now("UTC") + " " + clock.hour());
    if (args.length > 1 && args[0].equals("linger")) {
      Path dir = Path.of(args[1]);
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LINGER_MS);
      while (holdsSpillFiles(dir) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
    }
  }

  private static boolean holdsSpillFiles(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".spill"));
    }
  }

  /** The longest it lingers. */
  static final long LINGER_MS = 60_000;

  private PlainApp() {}
}
