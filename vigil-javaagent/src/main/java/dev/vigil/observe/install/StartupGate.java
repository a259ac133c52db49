package dev.vigil.observe.install;

import dev.vigil.observe.agent.MethodInclude;
import dev.vigil.observe.agent.Stderr;
import dev.vigil.observe.capture.Framework;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one class-file transformer Vigil registers, in {@code premain}, before the instrumenter's
 * classes are loaded. Building the {@link Instrumenter} and rehearsing it loads about a hundred
 * classes (ASM's among them), so it happens on a background thread while the application starts;
 * meanwhile this gate lets every class through untouched except those that may hold a target
 * (docs/AGENT.md, "What is recorded"), as the {@link CandidateFilter} tells from the class file
 * alone. The thread loading such a class waits until the transformer is {@linkplain #open open} and
 * the class is then transformed as usual, so no call is missed. From then on the gate hands the
 * transformer the classes the filter lets through and every retransformation, and nothing else: the
 * instrumenter never reads the thousands of classes an application loads that cannot be targets. Of
 * the classes let through before it opened, those the filter took for candidates are retransformed
 * once it has ({@link #loadedCandidates}).
 *
 * <p>It never holds a class for ever: when the transformer is not ready after {@link
 * #HOLD_LIMIT_MS}, or could not be built, the class goes through untouched (and is retransformed
 * later, if at all), with one line on stderr.
 */
public final class StartupGate implements ClassFileTransformer {
  /** The longest a class is held back waiting for the transformer. */
  static final long HOLD_LIMIT_MS = 20_000;

  private final long holdLimitMs;
  private final CandidateFilter filter;
  private final ClassLoader own;
  private final CountDownLatch settled = new CountDownLatch(1);
  private final AtomicInteger held = new AtomicInteger();
  private final AtomicInteger handedOn = new AtomicInteger();

  /** Per loader, the classes loaded before the gate opened and whether they may be targets. */
  private final Map<ClassLoader, Map<String, Boolean>> early = new WeakHashMap<>();

  private volatile ClassFileTransformer delegate;
  private volatile String firstHeld;

  /**
   * A gate for the configured includes.
   *
   * @param includes the entries of {@code vigil.methods.include}
   * @param frameworks the frameworks whose methods are instrumented
   * @param own Vigil's own class loader, whose classes are never targets
   */
  public StartupGate(List<MethodInclude> includes, List<Framework> frameworks, ClassLoader own) {
    this(includes, frameworks, own, HOLD_LIMIT_MS);
  }

  /**
   * A gate that holds a class at most {@code holdLimitMs} ({@link #HOLD_LIMIT_MS} in production).
   */
  StartupGate(
      List<MethodInclude> includes, List<Framework> frameworks, ClassLoader own, long holdLimitMs) {
    this.own = own;
    this.holdLimitMs = holdLimitMs;
    this.filter = new CandidateFilter(includes, frameworks);
  }

  @Override
  public byte[] transform(
      Module module,
      ClassLoader loader,
      String className,
      Class<?> redefined,
      ProtectionDomain domain,
      byte[] bytes)
      throws IllegalClassFormatException {
    if (redefined != null) {
      // a retransformation (Vigil's own of the classes loaded before it was ready, or another
      // agent's): the instrumenter decides, as always
      ClassFileTransformer d = delegate;
      return d == null ? null : d.transform(module, loader, className, redefined, domain, bytes);
    }
    if (loader == null || loader == own || className == null) {
      return null;
    }
    boolean candidate = mayBeTarget(loader, className, bytes);
    if (delegate == null && settled.getCount() > 0) {
      remember(loader, className, candidate);
    }
    if (!candidate) {
      return null;
    }
    ClassFileTransformer d = delegate;
    if (d == null) {
      if (settled.getCount() == 0) {
        return null;
      }
      d = await(className);
      if (d == null) {
        return null;
      }
    }
    handedOn.incrementAndGet();
    return d.transform(module, loader, className, redefined, domain, bytes);
  }

  /**
   * Hands the transformer, from now on, the classes that may be targets and every retransformation,
   * and lets the held classes go on to it.
   */
  public void open(ClassFileTransformer transformer) {
    delegate = transformer;
    settled.countDown();
  }

  /** Lets the held classes go on; untouched when the gate was never {@linkplain #open opened}. */
  public void settle() {
    settled.countDown();
  }

  /** Whether the instrumenter has taken over. */
  boolean isOpen() {
    return delegate != null;
  }

  /**
   * Of the classes already loaded, those that may be targets, to be retransformed once the
   * transformer has taken over: for a class the gate saw load before it opened, what the filter
   * said then; for one loaded before Vigil started (all of them when Vigil is attached to a running
   * JVM), what the filter says of its class file.
   */
  public List<Class<?>> loadedCandidates(Class<?>[] loaded) {
    List<Class<?>> out = new ArrayList<>();
    for (Class<?> c : loaded) {
      ClassLoader loader = c.getClassLoader();
      if (loader == null || loader == own || c.isArray() || c.isPrimitive() || c.isHidden()) {
        continue;
      }
      String name = c.getName().replace('.', '/');
      Boolean early;
      synchronized (this.early) {
        Map<String, Boolean> names = this.early.get(loader);
        early = names == null ? null : names.get(name);
      }
      try {
        if (early != null ? early : filter.mayBeTarget(loader, name)) {
          out.add(c);
        }
      } catch (RuntimeException unreadable) {
        out.add(c);
      }
    }
    return out;
  }

  /**
   * Forgets the classes loaded before the gate opened, once the installation has looked at them.
   */
  public void forgetEarlyClasses() {
    synchronized (early) {
      early.clear();
    }
  }

  private void remember(ClassLoader loader, String className, boolean candidate) {
    synchronized (early) { // no computeIfAbsent: the gate links no lambda while it holds classes
      Map<String, Boolean> names = early.get(loader);
      if (names == null) {
        names = new HashMap<>();
        early.put(loader, names);
      }
      names.put(className, candidate);
    }
  }

  /** How many classes were held back until the transformer was ready. */
  public int heldCount() {
    return held.get();
  }

  /** The first class held back, or null. */
  public String firstHeld() {
    return firstHeld;
  }

  /** How many classes being loaded the gate handed to the transformer (held ones included). */
  int handedOnCount() {
    return handedOn.get();
  }

  private ClassFileTransformer await(String className) {
    held.incrementAndGet();
    if (firstHeld == null) {
      firstHeld = className.replace('/', '.');
    }
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (!settled.await(holdLimitMs, TimeUnit.MILLISECONDS)) {
            Stderr.warn(
                "gate",
                () ->
                    "instrumentation not ready after "
                        + holdLimitMs
                        + " ms; "
                        + className.replace('/', '.')
                        + " is loaded as it is, and its calls until then are not recorded");
          }
          return delegate;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The filter's answer; a class it cannot read goes to the instrumenter, which decides. */
  private boolean mayBeTarget(ClassLoader loader, String name, byte[] bytes) {
    try {
      return filter.mayBeTarget(loader, name, bytes);
    } catch (Throwable t) {
      return true;
    }
  }
}
