package dev.vigil.it.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Threads calling an included method back to back, as fast as they can (NoLossUnderLoadIT). */
public final class NoLossApp {
  static final AtomicLong SUM = new AtomicLong();

  /** The included method. */
  public static long call(int thread, int i) {
    return SUM.addAndGet(i);
  }

  public static void main(String[] args) throws InterruptedException {
    int threads = Integer.parseInt(args[0]);
    int calls = Integer.parseInt(args[1]);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int id = t;
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < calls; i++) {
                  call(id, i);
                }
              },
              "caller-" + t);
      all.add(th);
      th.start();
    }
    for (Thread th : all) {
      th.join();
    }
    System.out.println(SUM.get());
  }

  private NoLossApp() {}
}
