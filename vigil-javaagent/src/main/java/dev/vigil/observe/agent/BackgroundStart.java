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
 * The part of Vigil's start that runs on a background thread while the application starts: the
 * writer, the transformer and the recorder, then the gate opens. A class of its own, apart from
 * {@link Installer}, so that {@code premain} neither loads nor verifies what only this thread uses.
 *
 * @param config the configuration
 * @param frameworks the frameworks whose methods are instrumented
 * @param inst the JVM's instrumentation
 * @param gate the start-up gate {@code premain} registered
 * @param startNanos when the agent started, for the start-up figure
 */
record BackgroundStart(
    AgentConfig config,
    List<Framework> frameworks,
    Instrumentation inst,
    StartupGate gate,
    long startNanos)
    implements Runnable {
  private static final boolean DEBUG = Boolean.getBoolean("vigil.debug.startup");

  /**
   * The background part: the writer, the recorder and the transformer; then the gate opens and the
   * classes loaded meanwhile that may be targets are retransformed. The writer's thread makes its
   * log while this one builds the transformer, on the core that a thread held back by the gate
   * leaves idle, and has it rehearse on a class of Vigil's own, so that the application's thread
   * that loads the first target does not load the transformation path itself.
   */
  @Override
  public void run() {
    try {
      Sites sites = new Sites();
      EventWriter writer = new EventWriter(config);
      // the writer thread makes its log, and grants Chronicle its module access before it first
      // opens the queue: nothing else of Vigil loads Chronicle
      writer.start(new ModuleAccess(inst, Installer.class.getModule()));
      long beforeInstrumenter = System.nanoTime();
      Instrumenter instrumenter = new Instrumenter(config, sites, frameworks);
      instrumenter.rehearse();
      long built = System.nanoTime();
      CallRecorder recorder = new CallRecorder(sites, writer, config, frameworks);
      Bridge.install(recorder);
      instrumenter.onFirstObjectCapture(new PrepareCapture(recorder));
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

  /**
   * {@link CallRecorder#prepareCapture}, a record rather than a method reference: Vigil's start
   * links no lambda (docs/DESIGN.md#the-start-path).
   */
  private record PrepareCapture(CallRecorder recorder) implements Runnable {
    @Override
    public void run() {
      recorder.prepareCapture();
    }
  }
}
