package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.agent.Frameworks;
import dev.vigil.observe.agent.MethodInclude;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The class-file filter in front of the instrumenter: over every class of the frameworks' jars on
 * the test class path and of the test applications, each class the instrumenter's matcher ({@link
 * Targets#isCandidate}) takes is let through, and most others are not.
 */
class CandidateFilterTest {
  private static final List<MethodInclude> INCLUDES =
      MethodInclude.parseList(
          "dev.langchain4j.model.chat.ChatModel[chat];java.util.function.Supplier[get]");
  private final ClassLoader loader = CandidateFilterTest.class.getClassLoader();

  @Test
  void letsThroughEveryClassTheInstrumenterWouldTakeAndFewOthers() throws IOException {
    CandidateFilter filter = new CandidateFilter(INCLUDES, Frameworks.all());
    Targets targets = new Targets(INCLUDES, Frameworks.all());
    ClassDescriptions descriptions = ClassDescriptions.of(loader);
    Set<String> candidates = new TreeSet<>();
    Set<String> missed = new TreeSet<>();
    int classes = 0;
    int passed = 0;
    for (FrameworkClassFiles.ClassFile c : FrameworkClassFiles.all()) {
      classes++;
      boolean mayBe = filter.mayBeTarget(loader, c.internalName(), c.bytes());
      passed += mayBe ? 1 : 0;
      ClassDescription type = descriptions.describe(c.bytes());
      if (targets.isCandidate(type, descriptions)) {
        candidates.add(type.name());
        if (!mayBe) {
          missed.add(type.name());
        }
      }
    }
    assertEquals(Set.of(), missed, "candidates the filter kept from the instrumenter");
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

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in =
        c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }
}
