package dev.vigil.it.apps.early;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A test's agent, given before Vigil's on the command line, that loads (without initializing) the
 * application classes named in its argument, comma-separated, from the system class loader: as an
 * agent that touches the application's classes does, they are loaded before Vigil starts, so
 * Vigil's start-up gate never sees them load and Vigil must retransform them. Such classes can only
 * be instrumented once Vigil is ready, so this agent then holds the loading of {@code EarlyCallApp}
 * until Vigil's background build ({@code vigil-start}) has finished. Nothing here changes a class.
 */
public final class PreloadAgent implements ClassFileTransformer {
  static final long PATIENCE_SECONDS = 120;

  /** A literal: naming the class in code would load it before Vigil starts. */
  private static final String APP = "dev/vigil/it/apps/early/EarlyCallApp";

  public static void premain(String args, Instrumentation inst) throws ClassNotFoundException {
    for (String name : args.split(",", -1)) {
      Class.forName(name.trim(), false, ClassLoader.getSystemClassLoader());
    }
    inst.addTransformer(new PreloadAgent(), false);
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> redefined,
      ProtectionDomain domain,
      byte[] bytes) {
    if (APP.equals(className)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
      while (vigilStarting() && System.nanoTime() < deadline) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
      }
    }
    return null;
  }

  private static boolean vigilStarting() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("vigil-start"));
  }
}
