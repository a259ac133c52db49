package dev.vigil.observe.agent;

import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.install.StartupGate;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Starts Vigil inside its own class loader. In {@code premain} it does only what must come first:
 * reads the configuration, turns Chronicle's analytics off before any Chronicle class loads, and
 * registers the {@link StartupGate}. Background threads then build the rest while the application
 * starts ({@link BackgroundStart}); the gate holds back the classes that may be instrumented until
 * it is done, so no call is missed. Called once by {@code VigilAgent}.
 */
public final class Installer {
  private static final boolean DEBUG = Boolean.getBoolean("vigil.debug.startup");

  private Installer() {}

  /**
   * Installs the agent.
   *
   * @param agentArgs the agent argument, or null
   * @param inst the JVM's instrumentation
   * @param startNanos when the agent started, for the start-up figure
   */
  public static void install(String agentArgs, Instrumentation inst, long startNanos) {
    AgentConfig config =
        AgentConfig.load(agentArgs, System.getProperties(), System.getenv(), Stderr.LINES);
    if (!config.enabled()) {
      return;
    }
    if (System.getProperty("chronicle.analytics.disable") == null) {
      System.setProperty("chronicle.analytics.disable", "true");
    }
    List<Framework> frameworks = Frameworks.all();
    StartupGate gate =
        new StartupGate(config.includes(), frameworks, Installer.class.getClassLoader());
    inst.addTransformer(gate, true);
    Thread builder =
        new Thread(new BackgroundStart(config, frameworks, inst, gate, startNanos), "vigil-start");
    builder.setDaemon(true);
    builder.setContextClassLoader(Installer.class.getClassLoader());
    builder.start();
    if (DEBUG) {
      Stderr.line("premain returned in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms");
    }
  }
}
