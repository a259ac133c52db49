package dev.vigil.it.apps.early;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A test's agent, given before Vigil's on the command line, that orders the start-up of {@link
 * EarlyCallApp} deterministically: Vigil's background build ({@code vigil-start}) is held at its
 * first class of Vigil's own loader until a thread of the application is held by Vigil's start-up
 * gate. So {@code main} surely loads its first tool class while the instrumentation is not ready,
 * however fast or slow the machine. Nothing here changes a class. When no class reaches the gate
 * within {@link #PATIENCE_SECONDS}, the build goes on and one line says so.
 */
public final class HoldStartAgent implements ClassFileTransformer, Runnable {
  static final long PATIENCE_SECONDS = 120;
  private static final String VIGIL_LOADER = "dev.vigil.observe.bridge.InstLoader";
  private static final String GATE = "dev.vigil.observe.install.StartupGate";

  private final CountDownLatch gateHolds = new CountDownLatch(1);

  public static void premain(String args, Instrumentation inst) {
    HoldStartAgent agent = new HoldStartAgent();
    inst.addTransformer(agent, false);
    Thread watcher = new Thread(agent, "hold-start");
    watcher.setDaemon(true);
    watcher.start();
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> redefined,
      ProtectionDomain domain,
      byte[] bytes) {
    if (gateHolds.getCount() > 0
        && Thread.currentThread().getName().equals("vigil-start")
        && loader != null
        && loader.getClass().getName().equals(VIGIL_LOADER)) {
      try {
        gateHolds.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return null;
  }

  /** Watches for a thread waiting inside the gate, then lets the build go on. */
  @Override
  public void run() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
    while (!aThreadWaitsInTheGate()) {
      if (System.nanoTime() > deadline) {
        System.err.println(
            "[hold-start] no class reached Vigil's start-up gate in " + PATIENCE_SECONDS + " s");
        break;
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    gateHolds.countDown();
  }

  private static boolean aThreadWaitsInTheGate() {
    for (var entry : Thread.getAllStackTraces().entrySet()) {
      Thread.State state = entry.getKey().getState();
      if (state != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
        continue;
      }
      for (StackTraceElement frame : entry.getValue()) {
        if (frame.getClassName().equals(GATE) && frame.getMethodName().equals("await")) {
          return true;
        }
      }
    }
    return false;
  }
}
