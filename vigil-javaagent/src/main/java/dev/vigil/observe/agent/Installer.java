package dev.vigil.observe.agent;

import dev.vigil.observe.boot.Bridge;
import java.lang.instrument.Instrumentation;

/**
 * Starts Vigil inside its own class loader: reads the configuration, grants Chronicle its module access, turns
 * Chronicle's analytics off before any Chronicle class loads, starts the writer thread (which flushes at shutdown), and
 * installs the instrumentation. Called once by {@code VigilAgent}.
 */
public final class Installer {
  /** How long the shutdown hook waits for waiting events to be written. */
  static final long SHUTDOWN_WAIT_MS = 10_000;

  private Installer() {}

  /**
   * Installs the agent.
   *
   * @param agentArgs  the agent argument, or null
   * @param inst       the JVM's instrumentation
   * @param startNanos when the agent started, for the start-up figure
   */
  public static void install(String agentArgs, Instrumentation inst, long startNanos) {
    AgentConfig config = AgentConfig.load(agentArgs, System.getProperties(), System.getenv(), Stderr::line);
    if (!config.enabled()) {
      return;
    }
    ModuleAccess.grant(inst, Installer.class.getModule());
    if (System.getProperty("chronicle.analytics.disable") == null) {
      System.setProperty("chronicle.analytics.disable", "true");
    }
    Sites sites = new Sites();
    EventWriter writer = new EventWriter(config);
    writer.start();
    Bridge.install(new CallRecorder(sites, writer, config));
    long beforeInstrumenter = System.nanoTime();
    new Instrumenter(config, sites).install(inst);
    if (Boolean.getBoolean("vigil.debug.startup")) {
      long end = System.nanoTime();
      Stderr.line("started in " + (end - startNanos) / 1_000_000 + " ms (instrumentation "
          + (end - beforeInstrumenter) / 1_000_000 + " ms), " + sites.size() + " methods instrumented so far");
    }
  }
}
