package dev.vigil.observe.agent;

import dev.vigil.observe.bridge.Bridge;
import dev.vigil.observe.capture.CallRecorder;
import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.Sites;
import dev.vigil.observe.install.Instrumenter;
import dev.vigil.observe.install.StartupGate;
import dev.vigil.observe.writer.EventWriter;
import java.lang.instrument.Instrumentation;
import java.util.List;

/**
 * Starts Vigil inside its own class loader. In {@code premain} it does only what must come first:
 * reads the configuration, turns Chronicle's analytics off before any Chronicle class loads, and
 * registers the {@link StartupGate}. Background threads then build the rest while the application
 * starts: the writer thread, which grants Chronicle its module access and makes its log, beside the
 * {@link Instrumenter}, then the recorder; the gate holds back the classes that may be instrumented
 * until it is done, so no call is missed. Called once by {@code VigilAgent}.
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
        AgentConfig.load(agentArgs, System.getProperties(), System.getenv(), Stderr::line);
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
        new Thread(() -> finish(config, frameworks, inst, gate, startNanos), "vigil-start");
    builder.setDaemon(true);
    builder.setContextClassLoader(Installer.class.getClassLoader());
    builder.start();
    if (DEBUG) {
      Stderr.line("premain returned in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms");
    }
  }

  /**
   * The background part: the writer, the recorder and the transformer; then the gate opens and the
   * classes loaded meanwhile that may be targets are retransformed. The writer's thread makes its
   * log while this one builds the transformer, on the core that a thread held back by the gate
   * leaves idle, and has it rehearse on a class of Vigil's own, so that the application's thread
   * that loads the first target does not load the transformation path itself.
   */
  private static void finish(
      AgentConfig config,
      List<Framework> frameworks,
      Instrumentation inst,
      StartupGate gate,
      long startNanos) {
    try {
      Sites sites = new Sites();
      EventWriter writer = new EventWriter(config);
      // the writer thread grants Chronicle its module access, then makes its log: nothing else of
      // Vigil loads Chronicle
      writer.start(() -> ModuleAccess.grant(inst, Installer.class.getModule()));
      long beforeInstrumenter = System.nanoTime();
      Instrumenter instrumenter = new Instrumenter(config, sites, frameworks);
      instrumenter.rehearse();
      long built = System.nanoTime();
      CallRecorder recorder = new CallRecorder(sites, writer, config, frameworks);
      Bridge.install(recorder);
      instrumenter.onFirstObjectCapture(recorder::prepareCapture);
      long beforeOpen = System.nanoTime();
      gate.open(instrumenter);
      List<Class<?>> early = gate.loadedCandidates(inst.getAllLoadedClasses());
      gate.forgetEarlyClasses();
      instrumenter.retransform(inst, early);
      long end = System.nanoTime();
      if (DEBUG) {
        Stderr.line(
            "instrumentation ready "
                + (beforeOpen - startNanos) / 1_000_000
                + " ms after premain began "
                + "(the transformer built and rehearsed in "
                + (built - beforeInstrumenter) / 1_000_000
                + " ms, the recorder built in "
                + (beforeOpen - built) / 1_000_000
                + " ms; "
                + early.size()
                + " classes loaded before "
                + "retransformed in "
                + (end - beforeOpen) / 1_000_000
                + " ms), "
                + gate.heldCount()
                + " classes held back"
                + (gate.firstHeld() == null ? "" : " (the first: " + gate.firstHeld() + ")")
                + ", "
                + sites.size()
                + " methods instrumented so far");
      }
    } catch (Throwable t) {
      Stderr.line("instrumentation not installed, the application runs without Vigil: " + t);
    } finally {
      gate.settle();
    }
  }
}
