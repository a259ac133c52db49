package dev.vigil.observe.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.nio.charset.StandardCharsets;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one class-file transformer Vigil registers, in {@code premain}, before Byte Buddy is loaded. Building Byte
 * Buddy's transformer loads over a thousand classes, so it happens on a background thread while the application
 * starts; meanwhile this gate lets every class through untouched except those whose bytes may name a target
 * (SPEC section 3): a {@code @Tool} annotation of LangChain4j or Spring AI, a class of either framework, a framework
 * entry point it implements, or a class of {@code vigil.methods.include} (named in the bytes, or a supertype
 * reached through the loader's class files). The thread loading such a class waits until the transformer is
 * {@linkplain #open open} and the class is then transformed as usual, so no call is missed. From then on the gate
 * hands every class to Byte Buddy's transformer; classes let through meanwhile are retransformed by Byte Buddy's
 * installation when they turn out to be targets.
 *
 * <p>It never holds a class for ever: when the transformer is not ready after {@link #HOLD_LIMIT_MS}, or could not
 * be built, the class goes through untouched (and is retransformed later, if at all), with one line on stderr.
 */
final class StartupGate implements ClassFileTransformer {
  /** The longest a class is held back waiting for the transformer. */
  static final long HOLD_LIMIT_MS = 20_000;
  private static final String[] NOT_TARGETS = {"java/", "jdk/", "sun/", "com/sun/", "net/bytebuddy/",
      "dev/vigil/observe/"};
  private static final String[] FRAMEWORKS = {"dev/langchain4j/", "org/springframework/ai/"};
  private static final String[] PLATFORM = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};
  private static final int MAX_DEPTH = 32;

  private final long holdLimitMs;
  private final byte[][] needles;
  private final Set<String> included;
  private final ClassLoader own;
  private final CountDownLatch settled = new CountDownLatch(1);
  private final Map<String, Boolean> descends = new ConcurrentHashMap<>();
  private final AtomicInteger held = new AtomicInteger();
  private volatile ClassFileTransformer delegate;

  /**
   * A gate for the configured includes.
   *
   * @param includes the entries of {@code vigil.methods.include}
   * @param own      Vigil's own class loader, whose classes are never targets
   */
  StartupGate(List<MethodInclude> includes, ClassLoader own) {
    this(includes, own, HOLD_LIMIT_MS);
  }

  /** A gate that holds a class at most {@code holdLimitMs} ({@link #HOLD_LIMIT_MS} in production). */
  StartupGate(List<MethodInclude> includes, ClassLoader own, long holdLimitMs) {
    this.own = own;
    this.holdLimitMs = holdLimitMs;
    List<String> names = new ArrayList<>(List.of(
        "L" + internal(Targets.LANGCHAIN4J_TOOL) + ";",
        "L" + internal(Targets.SPRING_AI_TOOL) + ";",
        internal(Targets.LANGCHAIN4J_EXECUTOR),
        internal(Targets.SPRING_AI_CALLBACK),
        internal(Targets.SPRING_AI_CALL_SPEC)));
    Set<String> inc = new java.util.HashSet<>();
    for (MethodInclude i : includes) {
      inc.add(internal(i.className()));
      names.add(internal(i.className()));
    }
    this.included = Set.copyOf(inc);
    this.needles = new byte[names.size()][];
    for (int i = 0; i < needles.length; i++) {
      needles[i] = names.get(i).getBytes(StandardCharsets.UTF_8);
    }
    // load what the checks use now, so that no class loaded inside a check comes back here half-way
    mayBeTarget(StartupGate.class.getClassLoader(), "a/B", new byte[0]);
    ClassHeader.supertypes(new byte[0]);
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
      ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
    ClassFileTransformer d = delegate;
    if (d != null) {
      return d.transform(module, loader, className, redefined, domain, bytes);
    }
    if (settled.getCount() == 0 || redefined != null || loader == null || loader == own || className == null) {
      return null;
    }
    try {
      if (!mayBeTarget(loader, className, bytes)) {
        return null;
      }
    } catch (Throwable t) {
      return null;
    }
    d = await(className);
    return d == null ? null : d.transform(module, loader, className, redefined, domain, bytes);
  }

  /** Hands every class from now on to {@code transformer} and lets the held classes go on to it. */
  void open(ClassFileTransformer transformer) {
    delegate = transformer;
    settled.countDown();
  }

  /** Lets the held classes go on; untouched when the gate was never {@linkplain #open opened}. */
  void settle() {
    settled.countDown();
    descends.clear();
  }

  /** Whether Byte Buddy's transformer has taken over. */
  boolean isOpen() {
    return delegate != null;
  }

  /** How many classes were held back until the transformer was ready. */
  int heldCount() {
    return held.get();
  }

  private ClassFileTransformer await(String className) {
    held.incrementAndGet();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          if (!settled.await(holdLimitMs, TimeUnit.MILLISECONDS)) {
            Stderr.warn("gate", () -> "instrumentation not ready after " + holdLimitMs + " ms; "
                + className.replace('/', '.') + " is loaded as it is, and its calls until then are not recorded");
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

  private boolean mayBeTarget(ClassLoader loader, String name, byte[] bytes) {
    if (startsWithAny(name, NOT_TARGETS)) {
      return false;
    }
    if (startsWithAny(name, FRAMEWORKS) || included.contains(name)) {
      return true;
    }
    for (byte[] needle : needles) {
      if (ClassHeader.contains(bytes, needle)) {
        return true;
      }
    }
    return !included.isEmpty() && bytes.length > 0 && descendsFromIncluded(loader, ClassHeader.supertypes(bytes), 0);
  }

  /** Whether one of {@code supers}, or a supertype above them, is an included class. */
  private boolean descendsFromIncluded(ClassLoader loader, List<String> supers, int depth) {
    if (depth > MAX_DEPTH) {
      return false;
    }
    for (String s : supers) {
      if (included.contains(s)) {
        return true;
      }
      if (startsWithAny(s, PLATFORM)) {
        continue;
      }
      Boolean known = descends.get(s);
      if (known == null) {
        known = descendsFromIncluded(loader, ClassHeader.supertypes(classFile(loader, s)), depth + 1);
        descends.put(s, known);
      }
      if (known) {
        return true;
      }
    }
    return false;
  }

  private static byte[] classFile(ClassLoader loader, String name) {
    try (InputStream in = loader.getResourceAsStream(name + ".class")) {
      return in == null ? new byte[0] : in.readAllBytes();
    } catch (IOException | RuntimeException unreadable) {
      return new byte[0];
    }
  }

  private static boolean startsWithAny(String s, String[] prefixes) {
    for (String p : prefixes) {
      if (s.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  private static String internal(String className) {
    return className.replace('.', '/');
  }
}
