package dev.vigil.it.apps;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many threads calling an included method at once, in rounds: {@code THREADS CALLS ROUNDS} makes
 * each round {@code THREADS} threads of {@code CALLS} calls each, prints {@code round N} when its
 * calls are made and waits for a line on stdin before the next round (and, after the last, before
 * it ends), so that a test decides when it goes on.
 */
public final class ConcurrencyApp {
  static final AtomicLong SUM = new AtomicLong();

  /** The included method. */
  public static long work(int thread, int i) {
    return SUM.addAndGet(i);
  }

  public static void main(String[] args) throws Exception {
    int threads = Integer.parseInt(args[0]);
    int calls = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (int round = 1; round <= rounds; round++) {
      List<Thread> all = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread th =
            new Thread(
                () -> {
                  for (int i = 0; i < calls; i++) {
                    work(id, i);
                  }
                },
                "worker-" + t);
        all.add(th);
        th.start();
      }
      for (Thread th : all) {
        th.join();
      }
      System.out.println("round " + round);
      System.out.flush();
      in.readLine();
    }
    System.out.println(SUM.get());
  }

  private ConcurrencyApp() {}
}
