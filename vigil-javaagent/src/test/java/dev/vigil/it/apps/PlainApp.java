package dev.vigil.it.apps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
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
   * spill file: until its agent has opened the queue and imported them. It waits for the
   * directory's changes, not for a time; the test that launches it bounds the whole process.
   */
  public static void main(String[] args) throws Exception {
    Backend backend = new HttpBackend();
    String receipt = backend.send("tea at five");
    System.out.println(receipt + " " + backend.confirm(receipt));
    Clock clock = new Clock();
    System.out.println(clock.now("UTC") + " " + clock.hour());
    if (args.length > 1 && args[0].equals("linger")) {
      awaitNoSpillFiles(Path.of(args[1]));
    }
  }

  /** Returns once {@code dir} holds no spill file, woken by the directory's changes. */
  private static void awaitNoSpillFiles(Path dir) throws IOException, InterruptedException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (WatchService changes = dir.getFileSystem().newWatchService()) {
      dir.register(changes, StandardWatchEventKinds.ENTRY_DELETE);
      while (holdsSpillFiles(dir)) {
        WatchKey key = changes.take();
        key.pollEvents();
        if (!key.reset()) {
          return; // the directory is gone, and its spill files with it
        }
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

  private PlainApp() {}
}
