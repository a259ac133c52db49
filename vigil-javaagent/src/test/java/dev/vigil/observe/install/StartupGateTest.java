package dev.vigil.observe.install;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.it.apps.early.Channel;
import dev.vigil.it.apps.early.EarlyCallApp;
import dev.vigil.it.apps.early.PingTools;
import dev.vigil.it.apps.early.SmsChannel;
import dev.vigil.observe.agent.Frameworks;
import dev.vigil.observe.agent.MethodInclude;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The start-up gate: what it holds back until Byte Buddy's transformer is ready, and what it lets
 * through.
 */
class StartupGateTest {
  /**
   * A hold limit no test reaches, so that a held class leaves only when the gate opens or settles.
   */
  private static final long NO_LIMIT_MS = Long.MAX_VALUE / 2;

  private static final byte[] MARK = {1, 2, 3};
  private static final ClassFileTransformer MARKING =
      new ClassFileTransformer() {
        @Override
        public byte[] transform(
            Module module,
            ClassLoader loader,
            String className,
            Class<?> redefined,
            java.security.ProtectionDomain domain,
            byte[] bytes) {
          return MARK;
        }
      };

  interface Included {
    void run();
  }

  abstract static class Middle implements Included {}

  static final class Leaf extends Middle {
    @Override
    public void run() {}
  }

  static final class Unrelated {
    int x;
  }

  static final class Caller {
    void call(Included included) {
      included.run();
    }
  }

  private final ClassLoader loader = StartupGateTest.class.getClassLoader();

  @Test
  void findsAConstantInTheConstantPoolButNotInTheCode() throws IOException {
    byte[][] tool = {
      "Ldev/langchain4j/agent/tool/Tool;".getBytes(java.nio.charset.StandardCharsets.UTF_8)
    };
    assertTrue(
        ClassHeader.read(
                classFile(
                    "demo/T",
                    "java/lang/Object",
                    "java/lang/Runnable",
                    "Ldev/langchain4j/agent/tool/Tool;"),
                tool)
            .mentions());
    assertFalse(
        ClassHeader.read(
                classFile(
                    "demo/T",
                    "java/lang/Object",
                    "java/lang/Runnable",
                    "Ldev/langchain4j/agent/tool/Tool;x"),
                tool)
            .mentions(),
        "a longer constant is another one");
    assertFalse(ClassHeader.read(bytes(Leaf.class), tool).mentions());
    assertFalse(
        ClassHeader.read(
                "Ldev/langchain4j/agent/tool/Tool;"
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8),
                tool)
            .mentions(),
        "not a class file");
  }

  @Test
  void readsTheDirectSupertypesOfAClassFile() throws IOException {
    assertEquals(List.of(internal(Middle.class)), ClassHeader.supertypes(bytes(Leaf.class)));
    assertEquals(
        List.of("java/lang/Object", internal(Included.class)),
        ClassHeader.supertypes(bytes(Middle.class)));
    assertEquals(List.of(), ClassHeader.supertypes(new byte[] {1, 2, 3}));
  }

  @Test
  void letsAClassThatNamesNoTargetThroughAtOnce() throws Exception {
    StartupGate gate =
        new StartupGate(
            List.of(new MethodInclude(Included.class.getName(), java.util.Set.of())),
            Frameworks.all(),
            null);
    assertNull(gate.transform(null, loader, "demo/Unrelated", null, null, bytes(Unrelated.class)));
    assertEquals(0, gate.heldCount());
  }

  @Test
  void holdsAnIndirectSubtypeOfAnIncludedTypeUntilOpenThenHandsItOn() throws Exception {
    StartupGate gate =
        new StartupGate(
            List.of(new MethodInclude(Included.class.getName(), java.util.Set.of())),
            Frameworks.all(),
            null,
            NO_LIMIT_MS);
    byte[] leaf = bytes(Leaf.class);
    // under another name: Vigil's own package is never held
    Loading result = Loading.start(gate, loader, "demo/Leaf", leaf);
    result.assertHeldBy(gate);
    gate.open(MARKING);
    assertArrayEquals(MARK, result.get());
    assertEquals(1, gate.heldCount());
    assertTrue(gate.isOpen());
    assertNull(
        gate.transform(null, loader, internal(Unrelated.class), null, null, bytes(Unrelated.class)),
        "once open, a class that cannot be a target still never reaches Byte Buddy's transformer");
    assertArrayEquals(
        MARK,
        gate.transform(null, loader, "demo/Leaf2", null, null, leaf),
        "once open, a class that may be a target goes to Byte Buddy's transformer without waiting");
    assertArrayEquals(
        MARK,
        gate.transform(
            null, loader, internal(Unrelated.class), Unrelated.class, null, bytes(Unrelated.class)),
        "every retransformation goes to Byte Buddy's transformer, which decides");
    assertEquals(2, gate.handedOnCount());
    assertEquals(1, gate.heldCount());
  }

  @Test
  void picksTheLoadedClassesThatMayBeTargetsForRetransformation() throws Exception {
    StartupGate gate =
        new StartupGate(
            List.of(new MethodInclude(Channel.class.getName(), java.util.Set.of())),
            Frameworks.all(),
            null,
            NO_LIMIT_MS);
    Class<?>[] loaded = {
      SmsChannel.class,
      PingTools.class,
      EarlyCallApp.class,
      String.class,
      int.class,
      SmsChannel[].class,
      Leaf.class
    };
    // never seen loading (loaded before Vigil started): their class files are read; Vigil's own
    // package never
    assertEquals(List.of(SmsChannel.class, PingTools.class), gate.loadedCandidates(loaded));
    // seen loading before the gate opened, and let through as no candidate: taken at the gate's
    // word
    assertNull(
        gate.transform(
            null, loader, internal(SmsChannel.class), null, null, bytes(Unrelated.class)));
    assertEquals(List.of(PingTools.class), gate.loadedCandidates(loaded));
    gate.forgetEarlyClasses();
    assertEquals(List.of(SmsChannel.class, PingTools.class), gate.loadedCandidates(loaded));
  }

  @Test
  void letsAClassThatOnlyCallsAnIncludedTypeThroughAtOnce() throws Exception {
    StartupGate gate =
        new StartupGate(
            List.of(new MethodInclude(Included.class.getName(), java.util.Set.of())),
            Frameworks.all(),
            null,
            NO_LIMIT_MS);
    // Caller names Included in its constant pool (it calls it) but does not implement it
    assertNull(gate.transform(null, loader, "demo/Caller", null, null, bytes(Caller.class)));
    assertEquals(0, gate.heldCount());
  }

  @Test
  void holdsADirectImplementationOfAFrameworkEntryPoint() throws Exception {
    StartupGate gate = new StartupGate(List.of(), Frameworks.all(), null, NO_LIMIT_MS);
    byte[] executor =
        classFile(
            "demo/MyExecutor", "java/lang/Object", "dev/langchain4j/service/tool/ToolExecutor");
    Loading result = Loading.start(gate, loader, "demo/MyExecutor", executor);
    result.assertHeldBy(gate);
    gate.open(MARKING);
    assertArrayEquals(MARK, result.get());
    byte[] user = classFile("demo/UsesExecutor", "java/lang/Object", "java/lang/Runnable");
    assertNull(gate.transform(null, loader, "demo/UsesExecutor", null, null, user));
  }

  @Test
  void holdsAClassThatNamesTheToolAnnotationAndLetsItGoWhenTheBuildFails() throws Exception {
    StartupGate gate = new StartupGate(List.of(), Frameworks.all(), null, NO_LIMIT_MS);
    byte[] fake =
        classFile(
            "demo/Tools",
            "java/lang/Object",
            "java/lang/Runnable",
            "Ldev/langchain4j/agent/tool/Tool;");
    Loading result = Loading.start(gate, loader, "demo/Tools", fake);
    result.assertHeldBy(gate);
    gate.settle();
    assertNull(result.get());
    assertFalse(gate.isOpen());
    assertNull(
        gate.transform(null, loader, "demo/Tools", null, null, fake),
        "settled: nothing is held any more");
  }

  @Test
  void neverHoldsJdkOrBootstrapClasses() throws Exception {
    StartupGate gate = new StartupGate(List.of(), Frameworks.all(), null);
    byte[] fake =
        classFile(
            "demo/Tools",
            "java/lang/Object",
            "java/lang/Runnable",
            "Ldev/langchain4j/agent/tool/Tool;");
    assertNull(gate.transform(null, loader, "java/util/Fake", null, null, fake));
    assertNull(gate.transform(null, null, "demo/Tools", null, null, fake));
    assertEquals(0, gate.heldCount());
  }

  /** A class being loaded through the gate on a thread of its own. */
  private static final class Loading {
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final Thread thread;

    private Loading(StartupGate gate, ClassLoader loader, String name, byte[] bytes) {
      thread =
          new Thread(
              () -> {
                try {
                  result.complete(gate.transform(null, loader, name, null, null, bytes));
                } catch (Throwable t) {
                  result.completeExceptionally(t);
                }
              },
              "loading " + name);
      thread.setDaemon(true);
    }

    static Loading start(StartupGate gate, ClassLoader loader, String name, byte[] bytes) {
      Loading l = new Loading(gate, loader, name, bytes);
      l.thread.start();
      return l;
    }

    /**
     * Asserts that the class reached the gate and is held there: the gate counts a class before it
     * waits, and a counted class cannot leave before the gate opens or settles (there is no time
     * limit in these tests).
     */
    void assertHeldBy(StartupGate gate) {
      await().atMost(Duration.ofMinutes(1)).until(() -> gate.heldCount() == 1);
      assertFalse(result.isDone(), "the class went through before the gate opened");
    }

    byte[] get() throws Exception {
      return result.get(1, TimeUnit.MINUTES);
    }
  }

  /**
   * The header of a class file that has {@code name}, extends {@code superName}, implements {@code
   * iface}, and has the {@code constants} in its constant pool (as a class whose method carries an
   * annotation has its descriptor).
   */
  private static byte[] classFile(String name, String superName, String iface, String... constants)
      throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
    out.writeInt(0xCAFEBABE);
    out.writeShort(0);
    out.writeShort(61);
    out.writeShort(
        7 + constants.length); // constant pool: 1-3 names, 4-6 classes, then the constants
    for (String n : List.of(name, superName, iface)) {
      out.writeByte(1);
      out.writeUTF(n);
    }
    for (int i = 1; i <= 3; i++) {
      out.writeByte(7);
      out.writeShort(i);
    }
    for (String c : constants) {
      out.writeByte(1);
      out.writeUTF(c);
    }
    out.writeShort(0x21);
    out.writeShort(4);
    out.writeShort(5);
    out.writeShort(1);
    out.writeShort(6);
    return bytes.toByteArray();
  }

  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getClassLoader().getResourceAsStream(internal(c) + ".class")) {
      return in.readAllBytes();
    }
  }
}
