package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** The start-up gate: what it holds back until Byte Buddy's transformer is ready, and what it lets through. */
class StartupGateTest {
  private static final byte[] MARK = {1, 2, 3};
  private static final ClassFileTransformer MARKING = new ClassFileTransformer() {
    @Override
    public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
        java.security.ProtectionDomain domain, byte[] bytes) {
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

  private final ClassLoader loader = StartupGateTest.class.getClassLoader();

  @Test
  void readsTheDirectSupertypesOfAClassFile() throws IOException {
    assertEquals(List.of(internal(Middle.class)), ClassHeader.supertypes(bytes(Leaf.class)));
    assertEquals(List.of("java/lang/Object", internal(Included.class)), ClassHeader.supertypes(bytes(Middle.class)));
    assertEquals(List.of(), ClassHeader.supertypes(new byte[] {1, 2, 3}));
  }

  @Test
  void letsAClassThatNamesNoTargetThroughAtOnce() throws Exception {
    StartupGate gate = new StartupGate(List.of(new MethodInclude(Included.class.getName(), java.util.Set.of())),
        null);
    assertNull(gate.transform(null, loader, "demo/Unrelated", null, null, bytes(Unrelated.class)));
    assertEquals(0, gate.heldCount());
  }

  @Test
  void holdsAnIndirectSubtypeOfAnIncludedTypeUntilOpenThenHandsItOn() throws Exception {
    StartupGate gate = new StartupGate(List.of(new MethodInclude(Included.class.getName(), java.util.Set.of())),
        null);
    byte[] leaf = bytes(Leaf.class);
    CompletableFuture<byte[]> result = CompletableFuture.supplyAsync(() -> {
      try {
        // under another name: Vigil's own package is never held
        return gate.transform(null, loader, "demo/Leaf", null, null, leaf);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    assertHeld(result);
    gate.open(MARKING);
    assertArrayEquals(MARK, result.get(10, TimeUnit.SECONDS));
    assertEquals(1, gate.heldCount());
    assertTrue(gate.isOpen());
    assertArrayEquals(MARK, gate.transform(null, loader, internal(Unrelated.class), null, null,
        bytes(Unrelated.class)), "once open, every class goes to Byte Buddy's transformer");
  }

  @Test
  void holdsAClassThatNamesTheToolAnnotationAndLetsItGoWhenTheBuildFails() throws Exception {
    StartupGate gate = new StartupGate(List.of(), null);
    byte[] fake = ("....Ldev/langchain4j/agent/tool/Tool;....").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    CompletableFuture<byte[]> result = CompletableFuture.supplyAsync(() -> {
      try {
        return gate.transform(null, loader, "demo/Tools", null, null, fake);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
    assertHeld(result);
    gate.settle();
    assertNull(result.get(10, TimeUnit.SECONDS));
    assertFalse(gate.isOpen());
    assertNull(gate.transform(null, loader, "demo/Tools", null, null, fake), "settled: nothing is held any more");
  }

  @Test
  void neverHoldsJdkOrBootstrapClasses() throws Exception {
    StartupGate gate = new StartupGate(List.of(), null);
    byte[] fake = ("Ldev/langchain4j/agent/tool/Tool;").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertNull(gate.transform(null, loader, "java/util/Fake", null, null, fake));
    assertNull(gate.transform(null, null, "demo/Tools", null, null, fake));
    assertEquals(0, gate.heldCount());
  }

  private static void assertHeld(CompletableFuture<byte[]> result) throws Exception {
    try {
      result.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("the class was not held back");
    } catch (TimeoutException expected) {
      // still waiting for the gate
    }
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
