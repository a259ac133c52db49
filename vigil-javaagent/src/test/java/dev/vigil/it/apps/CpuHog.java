package dev.vigil.it.apps;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Keeps cores busy for another process's test: {@code THREADS} threads spin until this process's
 * stdin closes or {@code MAX_SECONDS} have passed, whichever comes first (so a test that dies never
 * leaves it spinning for long). Prints {@code spinning} once every thread runs.
 */
public final class CpuHog {
  private static volatile boolean done;

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Long.parseLong(args[1]));
    Thread[] spinners = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      spinners[t] =
          new Thread(
              () -> {
                long x = 0;
                while (!done && System.nanoTime() < deadline) {
                  for (int i = 0; i < 100_000; i++) {
                    x = x * 6364136223846793005L + 1442695040888963407L;
                  }
                }
                if (x == 42) {
                  System.out.println(); // keeps the loop from being optimized away
                }
              },
              "hog-" + t);
      spinners[t].start();
    }
    System.out.println("spinning");
    System.out.flush();
    Thread stdin =
        new Thread(
            () -> {
              try {
                while (System.in.read() >= 0) {
                  // until the test closes the pipe
                }
              } catch (IOException closed) {
                // the same
              }
              done = true;
            });
    stdin.setDaemon(true);
    stdin.start();
    for (Thread t : spinners) {
      t.join();
    }
  }

  private CpuHog() {}
}
