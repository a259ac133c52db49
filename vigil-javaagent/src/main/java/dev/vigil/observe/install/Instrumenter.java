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
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

/**
 * Vigil's transformation: the calls to {@code Bridge} woven by the {@link SiteWeaver} into every
 * method {@link Targets} selects, with the method's {@link Site} id as a constant, and nothing else
 * about the class changed (no member added, so classes already loaded can be retransformed too). It
 * is the transformer behind the {@link StartupGate}, which hands it only the classes that may be
 * targets and every retransformation; each one is described from its class file by Byte Buddy's
 * type pool (parameter names included), which decides the targets, and woven with ASM. Neither Byte
 * Buddy's agent builder nor its {@code Advice} is used: building them cost several times what this
 * does before the first class can be instrumented. A class that cannot be transformed runs
 * unchanged; the first such error prints one line.
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
      ClassFileLocator locator =
          new ClassFileLocator.Compound(
              ClassFileLocator.Simple.of(name, bytes), ClassFileLocator.ForClassLoader.of(loader));
      TypePool pool = pool(locator);
      TypeDescription type = pool.describe(name).resolve();
      if (type.isSynthetic() || !targets.isCandidate(type)) {
        return null;
      }
      Map<String, SiteWeaver.Weave> woven = new HashMap<>();
      Set<String> supers = Targets.supertypes(type);
      for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
        Targets.Target target = targets.targetOf(type, supers, method);
        if (target == null) {
          continue;
        }
        Site site = register(type, supers, method, target);
        boolean withArgs = target.role() != Role.TOOL || config.captureArgs();
        woven.put(
            SiteWeaver.key(method.getInternalName(), method.getDescriptor()),
            new SiteWeaver.Weave(site.id(), withArgs));
        if (target.role() == Role.TOOL && capturesObjects(method)) {
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
      ClassFileLocator locator =
          ClassFileLocator.ForClassLoader.of(Rehearsal.class.getClassLoader());
      TypePool pool = pool(locator);
      TypeDescription type = pool.describe(Rehearsal.class.getName()).resolve();
      targets.isCandidate(type);
      Set<String> supers = Targets.supertypes(type);
      Map<String, SiteWeaver.Weave> woven = new HashMap<>();
      for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
        targets.targetOf(type, supers, method);
        capturesObjects(method);
        woven.put(
            SiteWeaver.key(method.getInternalName(), method.getDescriptor()),
            new SiteWeaver.Weave(-1, true));
      }
      SiteWeaver.weave(locator.locate(Rehearsal.class.getName()).resolve(), woven);
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

  private static TypePool pool(ClassFileLocator locator) {
    return new TypePool.Default.WithLazyResolution(
        TypePool.CacheProvider.Simple.withObjectType(),
        locator,
        TypePool.Default.ReaderMode.EXTENDED);
  }

  /**
   * Whether capturing the method's arguments or result will make JSON trees (objects other than JDK
   * values).
   */
  private boolean capturesObjects(MethodDescription method) {
    if (config.captureResult() && !capturedAsIs(method.getReturnType().asErasure())) {
      return true;
    }
    if (config.captureArgs()) {
      for (ParameterDescription p : method.getParameters()) {
        if (!capturedAsIs(p.getType().asErasure())) {
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
  private static boolean capturedAsIs(TypeDescription type) {
    if (type.isPrimitive() || type.isEnum() || RecordDescriptions.writtenFromFields(type)) {
      return true;
    }
    String name = type.getName();
    return (name.startsWith("java.lang.") && !name.equals("java.lang.Object"))
        || name.startsWith("java.time.")
        || name.equals("java.math.BigDecimal")
        || name.equals("java.math.BigInteger")
        || name.equals("java.util.UUID");
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
      TypeDescription type, Set<String> supers, MethodDescription method, Targets.Target target) {
    List<String> names = new ArrayList<>();
    for (ParameterDescription p : method.getParameters()) {
      names.add(p.isNamed() ? p.getName() : "arg" + p.getIndex());
    }
    String kind = null;
    if (target.role() == Role.TOOL) {
      kind = config.kinds().kindOf(type.getName(), method.getName());
      for (String s : supers) {
        if (kind != null) {
          break;
        }
        kind = config.kinds().kindOf(s, method.getName());
      }
      if (kind == null) {
        kind = ToolKind.of(target.toolName());
      }
    }
    return sites.register(
        target.role(),
        target.framework(),
        type.getName(),
        method.getName(),
        method.getDescriptor(),
        names,
        target.toolName(),
        kind);
  }
}
