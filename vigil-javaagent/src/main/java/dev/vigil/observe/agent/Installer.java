package dev.vigil.observe.agent;

import dev.vigil.observe.bridge.Bridge;
import java.lang.instrument.Instrumentation;

/**
 * Starts Vigil inside its own class loader. In {@code premain} it does only what must come first: reads the
 * configuration, grants Chronicle its module access, turns Chronicle's analytics off before any Chronicle class
 * loads, and registers the {@link StartupGate}. A background thread then builds the rest (the recorder, the writer
 * thread with its flush at shutdown, and Byte Buddy's instrumentation) while the application starts; the gate holds
 * back the classes that may be instrumented until it is done, so no call is missed. Called once by
 * {@code VigilAgent}.
 */
public final class Installer {
  /** How long the shutdown hook waits for waiting events to be written. */
  static final long SHUTDOWN_WAIT_MS = 10_000;
  private static final boolean DEBUG = Boolean.getBoolean("vigil.debug.startup");

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
    StartupGate gate = new StartupGate(config.includes(), Installer.class.getClassLoader());
    inst.addTransformer(gate, true);
    Thread builder = new Thread(() -> finish(config, inst, gate, startNanos), "vigil-start");
    builder.setDaemon(true);
    builder.setContextClassLoader(Installer.class.getClassLoader());
    builder.start();
    if (DEBUG) {
      Stderr.line("premain returned in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms");
    }
  }

  /** The background part: recorder, writer and instrumentation; the gate opens when Byte Buddy registers. */
  private static void finish(AgentConfig config, Instrumentation inst, StartupGate gate, long startNanos) {
    try {
      Sites sites = new Sites();
      EventWriter writer = new EventWriter(config);
      writer.start();
      Bridge.install(new CallRecorder(sites, writer, config));
      long beforeInstrumenter = System.nanoTime();
      new Instrumenter(config, sites).install(new GatedInstrumentation(inst, gate));
      if (DEBUG) {
        long end = System.nanoTime();
        Stderr.line("instrumentation ready " + (end - startNanos) / 1_000_000 + " ms after premain began (Byte Buddy "
            + (end - beforeInstrumenter) / 1_000_000 + " ms), " + gate.heldCount() + " classes held back, "
            + sites.size() + " methods instrumented so far");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
          StringBuilder names = new StringBuilder();
          for (int i = 0; i < sites.size(); i++) {
            names.append(' ').append(sites.get(i).className()).append('#').append(sites.get(i).method());
          }
          Stderr.line("at exit: " + gate.handedOnCount() + " loaded classes went to Byte Buddy, " + sites.size()
              + " methods instrumented:" + names);
        }));
      }
    } catch (Throwable t) {
      Stderr.line("instrumentation not installed, the application runs without Vigil: " + t);
    } finally {
      gate.settle();
    }
  }
}
