package dev.vigil.observe.bridge;

import java.io.File;
import java.lang.instrument.Instrumentation;

/**
 * The {@code Premain-Class} of {@code vigil.jar}. The JVM puts the jar on the system class path,
 * where the only classes it finds are this package's: the {@link Bridge} that instrumented code
 * calls is therefore visible to every class loader that delegates to the system class loader.
 * Everything else is loaded by Vigil's own {@link InstLoader}; this class creates it and hands over
 * to the installer inside it. (Appending to the bootstrap class path instead would make the JVM
 * print a class-data-sharing warning on the host's stderr.) Nothing here may disturb the
 * application: a failure prints one line and the JVM starts without Vigil.
 */
public final class VigilAgent {
  private static final String INSTALLER = "dev.vigil.observe.agent.Installer";

  private VigilAgent() {}

  /** Entry point for {@code -javaagent:vigil.jar[=options]}. */
  public static void premain(String agentArgs, Instrumentation inst) {
    start(agentArgs, inst);
  }

  /** Entry point when the agent is attached to a running JVM. */
  public static void agentmain(String agentArgs, Instrumentation inst) {
    start(agentArgs, inst);
  }

  private static void start(String agentArgs, Instrumentation inst) {
    long startNanos = System.nanoTime();
    try {
      File jar =
          new File(VigilAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      ClassLoader loader =
          new InstLoader(
              jar, ClassLoader.getPlatformClassLoader(), VigilAgent.class.getClassLoader());
      Class<?> installer = Class.forName(INSTALLER, true, loader);
      installer
          .getMethod("install", String.class, Instrumentation.class, long.class)
          .invoke(null, agentArgs, inst, startNanos);
    } catch (Throwable t) {
      Throwable cause = t.getCause() != null ? t.getCause() : t;
      System.err.println("[vigil] agent not started, the application runs without it: " + cause);
    }
  }
}
