package dev.vigil.observe.install;

import dev.vigil.observe.ToolKind;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.Stderr;
import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Sites;
import dev.vigil.observe.capture.ValueCapture;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Vigil's transformation: the calls to {@code Bridge} woven by the {@link SiteWeaver} into every
 * method {@link Targets} selects, with the method's {@link Site} id as a constant, and nothing else
 * about the class changed (no member added, so classes already loaded can be retransformed too). It
 * is the transformer behind the {@link StartupGate}, which hands it only the classes that may be
 * targets and every retransformation; each one is read from its class file ({@link
 * ClassDescriptions}, parameter names included) to decide the targets, and woven with ASM. Byte
 * Buddy's agent builder, type pool and {@code Advice} are not used: loading them cost a short
 * process several times what this does before the first class can be instrumented. A class that
 * cannot be transformed runs unchanged; the first such error prints one line.
 */
public final class Instrumenter implements ClassFileTransformer {
  private final AgentConfig config;
  private final Sites sites;
  private final Targets targets;

  /**
   * Set while this thread transforms: a class loaded meanwhile (by a loader reading a class file)
   * goes through.
   */
  private final ThreadLocal<Boolean> transforming = new ThreadLocal<>();

  private final AtomicBoolean errorReported = new AtomicBoolean();
  private final AtomicBoolean objectCapturePrepared = new AtomicBoolean();
  private volatile Runnable objectCapturePreparation;

  /**
   * A transformer that registers what it instruments in {@code sites}: tools, and the methods of
   * {@code frameworks}.
   */
  public Instrumenter(AgentConfig config, Sites sites, List<Framework> frameworks) {
    this.config = config;
    this.sites = sites;
    this.targets = new Targets(config.includes(), frameworks);
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> redefined,
      ProtectionDomain domain,
      byte[] bytes) {
    if (className == null || transforming.get() != null) {
      return null;
    }
    transforming.set(Boolean.TRUE);
    String name = className.replace('/', '.');
    try {
      ClassDescriptions classes = ClassDescriptions.of(loader);
      ClassDescription type = classes.describe(bytes);
      if (type.is(Opcodes.ACC_SYNTHETIC) || !targets.isCandidate(type, classes)) {
        return null;
      }
      Map<String, SiteWeaver.Weave> woven = new HashMap<>();
      Set<String> supers = Targets.supertypes(type, classes);
      for (ClassDescription.Method method : type.methods()) {
        Targets.Target target = targets.targetOf(type, supers, method);
        if (target == null) {
          continue;
        }
        Site site = register(type, supers, method, target);
        boolean withArgs = target.role() != Role.TOOL || config.captureArgs();
        woven.put(
            SiteWeaver.key(method.name(), method.descriptor()),
            new SiteWeaver.Weave(site.id(), withArgs));
        if (target.role() == Role.TOOL && capturesObjects(method, classes)) {
          prepareObjectCapture();
        }
      }
      return woven.isEmpty() ? null : SiteWeaver.weave(bytes, woven);
    } catch (Throwable t) {
      if (errorReported.compareAndSet(false, true)) {
        Stderr.line(
            "could not instrument "
                + name
                + " ("
                + t
                + "); it runs without Vigil, and further such errors are not shown");
      }
      return null;
    } finally {
      transforming.remove();
    }
  }

  /**
   * Runs {@code preparation} on a thread of its own the first time a tool whose argument or result
   * will be captured as an object (a JSON tree) is instrumented: the first call of such a tool then
   * finds what capturing needs loaded, rather than loading it on the application's thread.
   */
  public void onFirstObjectCapture(Runnable preparation) {
    this.objectCapturePreparation = preparation;
  }

  /**
   * Transforms a small class of Vigil's own once, shaped like a tool, and throws the result away:
   * what transforming needs is then loaded by this thread rather than by the application's thread
   * that loads the first target. Registers nothing; never throws.
   */
  public void rehearse() {
    try {
      ClassLoader loader = Rehearsal.class.getClassLoader();
      byte[] bytes = ClassDescriptions.classFile(loader, Rehearsal.class.getName());
      ClassDescriptions classes = ClassDescriptions.of(loader);
      ClassDescription type = classes.describe(bytes);
      targets.isCandidate(type, classes);
      Set<String> supers = Targets.supertypes(type, classes);
      Map<String, SiteWeaver.Weave> woven = new HashMap<>();
      for (ClassDescription.Method method : type.methods()) {
        if (method.isMethod()) {
          targets.targetOf(type, supers, method);
          capturesObjects(method, classes);
          woven.put(
              SiteWeaver.key(method.name(), method.descriptor()), new SiteWeaver.Weave(-1, true));
        }
      }
      SiteWeaver.weave(bytes, woven);
    } catch (Throwable ignored) {
      // only a head start
    }
  }

  /** The class {@link #rehearse} transforms. */
  static final class Rehearsal {
    private Rehearsal() {}

    String lookUp(String number, int days) {
      return number + days;
    }
  }

  /**
   * Retransforms classes that were loaded before this transformer took over and may be targets; a
   * class the JVM refuses stays as it is.
   */
  public void retransform(Instrumentation inst, List<Class<?>> loaded) {
    if (loaded.isEmpty()) {
      return;
    }
    try {
      inst.retransformClasses(loaded.toArray(new Class<?>[0]));
    } catch (Throwable all) {
      for (Class<?> c : loaded) {
        try {
          inst.retransformClasses(c);
        } catch (Throwable one) {
          if (errorReported.compareAndSet(false, true)) {
            Stderr.line(
                "could not instrument "
                    + c.getName()
                    + " ("
                    + one
                    + "); it runs without Vigil, and further such errors are not shown");
          }
        }
      }
    }
  }

  /**
   * Whether capturing the method's arguments or result will make JSON trees (objects other than JDK
   * values).
   */
  private boolean capturesObjects(ClassDescription.Method method, ClassDescriptions classes) {
    if (config.captureResult() && !capturedAsIs(method.returnType(), classes)) {
      return true;
    }
    if (config.captureArgs()) {
      for (String p : method.parameterTypes()) {
        if (!capturedAsIs(p, classes)) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Types {@link ValueCapture} keeps or writes as text without Jackson, and records the writer
   * writes from their fields ({@link RecordDescriptions}).
   */
  private static boolean capturedAsIs(String name, ClassDescriptions classes) {
    if (ClassDescription.isPrimitive(name)
        || (name.startsWith("java.lang.") && !name.equals("java.lang.Object"))
        || name.startsWith("java.time.")
        || name.equals("java.math.BigDecimal")
        || name.equals("java.math.BigInteger")
        || name.equals("java.util.UUID")) {
      return true;
    }
    ClassDescription type = classes.describe(name);
    return type != null
        && (type.is(Opcodes.ACC_ENUM) || RecordDescriptions.writtenFromFields(name, classes));
  }

  private void prepareObjectCapture() {
    Runnable preparation = objectCapturePreparation;
    if (preparation == null || !objectCapturePrepared.compareAndSet(false, true)) {
      return;
    }
    Thread t = new Thread(preparation, "vigil-prepare");
    t.setDaemon(true);
    t.setContextClassLoader(Instrumenter.class.getClassLoader());
    t.start();
  }

  private Site register(
      ClassDescription type,
      Set<String> supers,
      ClassDescription.Method method,
      Targets.Target target) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < method.parameterNames().size(); i++) {
      String name = method.parameterNames().get(i);
      names.add(name != null ? name : "arg" + i);
    }
    String kind = null;
    if (target.role() == Role.TOOL) {
      kind = config.kinds().kindOf(type.name(), method.name());
      for (String s : supers) {
        if (kind != null) {
          break;
        }
        kind = config.kinds().kindOf(s, method.name());
      }
      if (kind == null) {
        kind = ToolKind.of(target.toolName());
      }
    }
    return sites.register(
        target.role(),
        target.framework(),
        type.name(),
        method.name(),
        method.descriptor(),
        names,
        target.toolName(),
        kind);
  }
}
