package dev.vigil.observe.install;

import dev.vigil.observe.agent.MethodInclude;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether a class may have methods Vigil instruments, decided from its class file alone, before Byte Buddy sees it
 * (Byte Buddy would parse the whole class and resolve its type hierarchy for every class the application loads). A
 * cheap superset of {@link Targets#isCandidate}: the type descriptor of a {@code @Tool} annotation of LangChain4j or
 * Spring AI is a constant of the class (it is when a method carries it); or the class is one of the frameworks'
 * entry points (their default methods are instrumented), a class of either framework that descends from one, or
 * Spring AI's tool-calling manager; or it directly extends an entry point; or it is (a subtype of) a class of
 * {@code vigil.methods.include}. Supertypes above the direct ones are read from the loader's class files
 * ({@link ClassHeader}), and what is learnt is kept per loader. Pure JDK, so it can run before Byte Buddy is loaded;
 * it loads no class.
 */
final class CandidateFilter {
  private static final String[] NOT_TARGETS = {"java/", "jdk/", "sun/", "com/sun/", "net/bytebuddy/",
      "dev/vigil/observe/"};
  private static final String[] FRAMEWORKS = {"dev/langchain4j/", "org/springframework/ai/"};
  private static final String[] PLATFORM = {"java/", "javax/", "jdk/", "sun/", "com/sun/"};

  private final byte[][] annotations;
  private final Set<String> entryPoints;
  private final String manager;
  private final Set<String> included;
  /** Framework classes: whether one descends from an entry point, or is an AI service's invocation handler. */
  private final Descent toFramework;
  /** Any class: whether it is, or descends from, an included type. */
  private final Descent toIncluded;

  /** A filter for the entries of {@code vigil.methods.include}. */
  CandidateFilter(List<MethodInclude> includes) {
    this.annotations = new byte[][] {
        ("L" + internal(Targets.LANGCHAIN4J_TOOL) + ";").getBytes(StandardCharsets.UTF_8),
        ("L" + internal(Targets.SPRING_AI_TOOL) + ";").getBytes(StandardCharsets.UTF_8)};
    this.entryPoints = Set.of(internal(Targets.LANGCHAIN4J_EXECUTOR), internal(Targets.SPRING_AI_CALLBACK),
        internal(Targets.SPRING_AI_CALL_SPEC));
    this.manager = internal(Targets.SPRING_AI_MANAGER);
    Set<String> frameworkWanted = new HashSet<>(entryPoints);
    frameworkWanted.add(internal(Targets.INVOCATION_HANDLER));
    this.toFramework = new Descent(frameworkWanted, false);
    Set<String> inc = new HashSet<>();
    for (MethodInclude i : includes) {
      inc.add(internal(i.className()));
    }
    this.included = Set.copyOf(inc);
    this.toIncluded = new Descent(included, included.stream().anyMatch(n -> startsWithAny(n, PLATFORM)));
    // load what the checks use now, so that no class loaded inside a check comes back to it half-way
    mayBeTarget(CandidateFilter.class.getClassLoader(), "a/B", new byte[0]);
    ClassHeader.supertypes(new byte[0]);
  }

  /**
   * Whether the class {@code name} (internal form) with class file {@code bytes}, defined by {@code loader}, may
   * have methods to instrument. Never true for the JDK, Byte Buddy and Vigil.
   */
  boolean mayBeTarget(ClassLoader loader, String name, byte[] bytes) {
    if (startsWithAny(name, NOT_TARGETS)) {
      return false;
    }
    if (included.contains(name) || entryPoints.contains(name) || name.equals(manager)) {
      return true;
    }
    ClassHeader header = ClassHeader.read(bytes, annotations);
    if (header.mentions()) {
      return true;
    }
    List<String> supers = header.supertypes();
    if (startsWithAny(name, FRAMEWORKS)) {
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
   * The same for a class already loaded, whose class file is read from its loader (unless its name rules it out).
   */
  boolean mayBeTarget(ClassLoader loader, String name) {
    return !startsWithAny(name, NOT_TARGETS) && mayBeTarget(loader, name, classFile(loader, name));
  }

  /**
   * Whether a class descends from one of a set of types, its supertypes read from class files (a wanted JDK type is
   * found among the supertypes of the classes read; the JDK's own class files are read only when asked to). What is
   * learnt is kept per class loader.
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
      synchronized (known) {
        return known.computeIfAbsent(loader, l -> new ConcurrentHashMap<>());
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
