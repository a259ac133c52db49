package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.agent.Frameworks;
import dev.vigil.observe.agent.MethodInclude;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/**
 * The class-file filter in front of Byte Buddy: over every class of the frameworks' jars on the
 * test class path and of the test applications, each class Byte Buddy's matcher ({@link
 * Targets#isCandidate}) takes is let through, and most others are not.
 */
class CandidateFilterTest {
  private static final List<MethodInclude> INCLUDES =
      MethodInclude.parseList(
          "dev.langchain4j.model.chat.ChatModel[chat];java.util.function.Supplier[get]");
  private final ClassLoader loader = CandidateFilterTest.class.getClassLoader();

  @Test
  void letsThroughEveryClassByteBuddyWouldMatchAndFewOthers() throws IOException {
    CandidateFilter filter = new CandidateFilter(INCLUDES, Frameworks.all());
    Targets targets = new Targets(INCLUDES, Frameworks.all());
    TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
    Set<String> candidates = new TreeSet<>();
    Set<String> missed = new TreeSet<>();
    int classes = 0;
    int passed = 0;
    for (ClassFile c : classFiles()) {
      classes++;
      boolean mayBe = filter.mayBeTarget(loader, c.internalName(), c.bytes());
      passed += mayBe ? 1 : 0;
      TypeDescription type = pool.describe(c.internalName().replace('/', '.')).resolve();
      if (targets.isCandidate(type)) {
        candidates.add(type.getName());
        if (!mayBe) {
          missed.add(type.getName());
        }
      }
    }
    assertEquals(Set.of(), missed, "candidates the filter kept from Byte Buddy");
    assertTrue(
        candidates.containsAll(
            List.of(
                "dev.langchain4j.service.tool.ToolExecutor",
                "dev.langchain4j.service.tool.DefaultToolExecutor",
                "org.springframework.ai.tool.ToolCallback",
                "org.springframework.ai.tool.method.MethodToolCallback",
                "dev.vigil.it.apps.ReminderTools",
                "dev.vigil.it.apps.ScriptedTurnsModel",
                "org.springframework.util.function.SingletonSupplier")),
        candidates::toString);
    assertTrue(classes > 4_000, classes + " classes read");
    assertTrue(
        passed < classes / 20,
        passed
            + " of "
            + classes
            + " classes let through, "
            + candidates.size()
            + " of them candidates");
  }

  @Test
  void aCallerOfAToolOrOfAnIncludedTypeIsNoCandidate() throws IOException {
    CandidateFilter filter = new CandidateFilter(INCLUDES, Frameworks.all());
    assertFalse(filter.mayBeTarget(loader, "demo/Caller", bytes(Caller.class)));
    assertFalse(
        filter.mayBeTarget(
            loader,
            "dev/langchain4j/memory/ChatMemory",
            bytes(dev.langchain4j.memory.ChatMemory.class)),
        "a framework type that is no entry point");
    assertTrue(
        filter.mayBeTarget(loader, "demo/Supplies", bytes(Supplies.class)),
        "implements an included JDK type");
  }

  static final class Caller {
    String call(dev.langchain4j.model.chat.ChatModel model, dev.vigil.it.apps.ReminderTools tools) {
      return model.chat("hi") + tools;
    }
  }

  static final class Supplies implements java.util.function.Supplier<String> {
    @Override
    public String get() {
      return "";
    }
  }

  // a carrier of a class file's bytes, never compared or hashed
  @SuppressWarnings("ArrayRecordComponent")
  private record ClassFile(String internalName, byte[] bytes) {}

  /** The class files of the frameworks' jars and of the test applications. */
  private static List<ClassFile> classFiles() throws IOException {
    List<ClassFile> out = new ArrayList<>();
    String path =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : path.split(File.pathSeparator, -1)) {
      Path p = Path.of(entry);
      String file = p.getFileName().toString();
      if (file.endsWith(".jar")
          && (file.startsWith("langchain4j")
              || file.startsWith("spring-ai")
              || file.startsWith("spring-core")
              || file.startsWith("spring-context")
              || file.startsWith("jackson-databind"))) {
        try (JarFile jar = new JarFile(p.toFile())) {
          for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
            String name = e.getName();
            if (name.endsWith(".class")
                && !name.startsWith("META-INF")
                && !name.endsWith("module-info.class")
                && !name.endsWith("package-info.class")) {
              try (InputStream in = jar.getInputStream(e)) {
                out.add(new ClassFile(name.substring(0, name.length() - 6), in.readAllBytes()));
              }
            }
          }
        }
      } else if (p.endsWith("test-classes")) {
        Path apps = p.resolve("dev/vigil/it/apps");
        try (Stream<Path> files = Files.walk(apps)) {
          files
              .filter(f -> f.toString().endsWith(".class"))
              .forEach(
                  f -> {
                    String rel = p.relativize(f).toString().replace(File.separatorChar, '/');
                    try {
                      out.add(
                          new ClassFile(rel.substring(0, rel.length() - 6), Files.readAllBytes(f)));
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
        }
      }
    }
    return out;
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in =
        c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }
}
