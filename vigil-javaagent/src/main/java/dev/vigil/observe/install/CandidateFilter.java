package dev.vigil.observe.install;

import dev.vigil.observe.agent.MethodInclude;
import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.MethodRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a class may have methods Vigil instruments, decided from its class file alone, before the
 * instrumenter sees it (it would read the whole class and resolve its type hierarchy for every
 * class the application loads). A cheap superset of {@link Targets#isCandidate}, read from each
 * {@link Framework}'s plain strings: the type descriptor of a framework's tool annotation is a
 * constant of the class (it is when a method carries it); or the class is one of the frameworks'
 * entry points (their default methods are instrumented), a class of a framework that descends from
 * a type its {@link MethodRule}s name, or a class a rule names exactly; or it directly extends an
 * entry point; or it is (a subtype of) a class of {@code vigil.methods.include}. Supertypes above
 * the direct ones are read from the loader's class files ({@link ClassHeader}), and what is learnt
 * is kept per loader. Pure JDK, so it can run before the instrumenter is loaded; it loads no class.
 */
final class CandidateFilter {
  private static final String[] NOT_TARGETS = {
    "java/", "jdk/", "sun/", "com/sun/", "net/bytebuddy/", "dev/vigil/observe/"
  };
  private static final String[] PLATFORM = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};

  private final byte[][] annotations;
  private final String[] frameworkPackages;
  private final Set<String> entryPoints;

  /** Classes whose own methods are instrumented, not their subtypes'. */
  private final Set<String> exactClasses;

  private final Set<String> included;

  /** Framework classes: whether one descends from a type a framework's rules name. */
  private final Descent toFramework;

  /** Any class: whether it is, or descends from, an included type. */
  private final Descent toIncluded;

  /** A filter for the frameworks' targets and the entries of {@code vigil.methods.include}. */
  CandidateFilter(List<MethodInclude> includes, List<Framework> frameworks) {
    List<byte[]> descriptors = new ArrayList<>();
    List<String> packages = new ArrayList<>();
    Set<String> points = new HashSet<>();
    Set<String> exact = new HashSet<>();
    Set<String> frameworkWanted = new HashSet<>();
    for (Framework f : frameworks) {
      for (String a : f.toolAnnotations()) {
        descriptors.add(("L" + internal(a) + ";").getBytes(StandardCharsets.UTF_8));
      }
      for (String p : f.packages()) {
        packages.add(internal(p));
      }
      for (MethodRule r : f.methods()) {
        if (r.exactType()) {
          exact.add(internal(r.type()));
        } else {
          frameworkWanted.add(internal(r.type()));
          if (r.isEntryPoint()) {
            points.add(internal(r.type()));
          }
        }
      }
    }
    this.annotations = descriptors.toArray(new byte[0][]);
    this.frameworkPackages = packages.toArray(new String[0]);
    this.entryPoints = Set.copyOf(points);
    this.exactClasses = Set.copyOf(exact);
    this.toFramework = new Descent(frameworkWanted, false);
    Set<String> inc = new HashSet<>();
    for (MethodInclude i : includes) {
      inc.add(internal(i.className()));
    }
    this.included = Set.copyOf(inc);
    boolean platformIncluded = false;
    for (String name : included) {
      platformIncluded |= startsWithAny(name, PLATFORM);
    }
    this.toIncluded = new Descent(included, platformIncluded);
    // load what the checks use now, so that no class loaded inside a check comes back to it
    // half-way
    mayBeTarget(CandidateFilter.class.getClassLoader(), "a/B", new byte[0]);
    ClassHeader.supertypes(new byte[0]);
  }

  /**
   * Whether the class {@code name} (internal form) with class file {@code bytes}, defined by {@code
   * loader}, may have methods to instrument. Never true for the JDK, Byte Buddy and Vigil.
   */
  boolean mayBeTarget(ClassLoader loader, String name, byte[] bytes) {
    if (startsWithAny(name, NOT_TARGETS)) {
      return false;
    }
    if (included.contains(name) || entryPoints.contains(name) || exactClasses.contains(name)) {
      return true;
    }
    ClassHeader header = ClassHeader.read(bytes, annotations);
    if (header.mentions()) {
      return true;
    }
    List<String> supers = header.supertypes();
    if (startsWithAny(name, frameworkPackages)) {
      if (toFramework.any(loader, supers)) {
        return true;
      }
    } else {
      for (String s : supers) {
        if (entryPoints.contains(s)) {
          return true;
        }
      }
    }
    return !included.isEmpty() && toIncluded.any(loader, supers);
  }

  /**
   * The same for a class already loaded, whose class file is read from its loader (unless its name
   * rules it out).
   */
  boolean mayBeTarget(ClassLoader loader, String name) {
    return !startsWithAny(name, NOT_TARGETS) && mayBeTarget(loader, name, classFile(loader, name));
  }

  /**
   * Whether a class descends from one of a set of types, its supertypes read from class files (a
   * wanted JDK type is found among the supertypes of the classes read; the JDK's own class files
   * are read only when asked to). What is learnt is kept per class loader.
   */
  private static final class Descent {
    private static final int MAX_DEPTH = 32;
    private final Set<String> wanted;
    private final boolean throughPlatform;
    private final Map<ClassLoader, Map<String, Boolean>> known = new WeakHashMap<>();

    Descent(Set<String> wanted, boolean throughPlatform) {
      this.wanted = Set.copyOf(wanted);
      this.throughPlatform = throughPlatform;
    }

    /** Whether one of {@code supers}, or a supertype above them, is wanted. */
    boolean any(ClassLoader loader, List<String> supers) {
      return any(loader, supers, 0);
    }

    private boolean any(ClassLoader loader, List<String> supers, int depth) {
      if (depth > MAX_DEPTH) {
        return false;
      }
      for (String s : supers) {
        if (wanted.contains(s)) {
          return true;
        }
        if (!throughPlatform && startsWithAny(s, PLATFORM)) {
          continue;
        }
        Map<String, Boolean> knownHere = knownFor(loader);
        Boolean k = knownHere.get(s);
        if (k == null) {
          k = any(loader, ClassHeader.supertypes(classFile(loader, s)), depth + 1);
          knownHere.put(s, k);
        }
        if (k) {
          return true;
        }
      }
      return false;
    }

    private Map<String, Boolean> knownFor(ClassLoader loader) {
      synchronized (known) { // no computeIfAbsent: the gate's checks link no lambda
        Map<String, Boolean> k = known.get(loader);
        if (k == null) {
          k = new ConcurrentHashMap<>();
          known.put(loader, k);
        }
        return k;
      }
    }
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

  static String internal(String className) {
    return className.replace('.', '/');
  }
}
