package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.bridge.Bridge;
import dev.vigil.observe.bridge.Recorder;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.openhft.chronicle.core.Jvm;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The woven calls: every method behaves as before, and {@code Bridge} sees each call's receiver,
 * arguments, result or throwable; and the JVM's verifier accepts every method of thousands of
 * library classes woven, compiled by others than this project.
 */
class SiteWeaverTest {
  /** Methods shaped as tools are: every kind of value, several returns, throws and catches. */
  public static final class Shapes {
    private final String name;

    public Shapes(String name) {
      this.name = name;
    }

    public static int add(int a, int b) {
      return a + b;
    }

    public long twice(long x) {
      return 2 * x;
    }

    public double half(double d, float f, short s, byte b) {
      return d / 2 + f + s + b;
    }

    public void nothing() {
      // returns nothing
    }

    public String pick(boolean first, String s, char c) {
      if (first) {
        return name + s;
      }
      return s + c;
    }

    public int countDown(int n) {
      while (n > 10) {
        n -= 3;
      }
      return n;
    }

    public int fails(int x) {
      if (x < 0) {
        throw new IllegalStateException("negative: " + x);
      }
      return x;
    }

    public int parsed(String s) {
      try {
        return Integer.parseInt(s);
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    public synchronized String locked(String s) {
      return s.toUpperCase(java.util.Locale.ROOT);
    }

    public int[] lengths(String[] words, long[][] unused) {
      int[] out = new int[words.length];
      for (int i = 0; i < words.length; i++) {
        out[i] = words[i].length();
      }
      return out;
    }

    public String merged(boolean builder) {
      CharSequence text = builder ? new StringBuilder("built") : name;
      long big = 1L << 40;
      double ratio = big / 3.0;
      return text.toString() + (ratio > 0);
    }
  }

  private final List<String> calls = new ArrayList<>();

  @AfterEach
  void uninstall() {
    Bridge.install(null);
  }

  @Test
  void everyMethodBehavesAsBeforeAndTheBridgeSeesEachCall() throws Exception {
    Map<String, SiteWeaver.Weave> all = new HashMap<>();
    Map<String, Integer> sites = new TreeMap<>();
    for (Method m : Shapes.class.getDeclaredMethods()) {
      int site = 100 + sites.size();
      sites.put(m.getName(), site);
      all.put(SiteWeaver.key(m.getName(), descriptor(m)), new SiteWeaver.Weave(site, true));
    }
    Class<?> woven = define(Shapes.class, SiteWeaver.weave(bytes(Shapes.class), all));
    Object plain = new Shapes("robin");
    Object instrumented = woven.getConstructor(String.class).newInstance("robin");
    Bridge.install(recorder());

    Object[][] invocations = {
      {"add", new Object[] {2, 3}},
      {"twice", new Object[] {21L}},
      {"half", new Object[] {5.0, 1.5f, (short) 2, (byte) 3}},
      {"nothing", new Object[] {}},
      {"pick", new Object[] {true, "!", 'x'}},
      {"pick", new Object[] {false, "!", 'x'}},
      {"countDown", new Object[] {40}},
      {"fails", new Object[] {4}},
      {"fails", new Object[] {-4}},
      {"parsed", new Object[] {"17"}},
      {"parsed", new Object[] {"x"}},
      {"locked", new Object[] {"quiet"}},
      {"merged", new Object[] {true}},
      {"merged", new Object[] {false}},
    };
    for (Object[] invocation : invocations) {
      String name = (String) invocation[0];
      Object[] args = (Object[]) invocation[1];
      calls.clear();
      Object expected = invoke(plain, name, args);
      Object actual = invoke(instrumented, name, args);
      assertEquals(expected, actual, name);
      int site = sites.get(name);
      boolean isStatic = name.equals("add");
      String self = isStatic ? "null" : "Shapes";
      String outcome =
          expected instanceof Thrown t ? "null " + t.type() : String.valueOf(expected) + " null";
      assertEquals(
          List.of(
              "enter " + site + " " + self + " " + Arrays.toString(args),
              "exit " + site + " " + outcome),
          calls,
          name);
    }

    calls.clear();
    int[] lengths =
        (int[])
            invoke(
                instrumented, "lengths", new Object[] {new String[] {"a", "bcd"}, new long[0][]});
    assertArrayEquals(new int[] {1, 3}, lengths);
    assertEquals(2, calls.size());
  }

  @Test
  void withoutArgumentsTheBridgeIsPassedNoArray() throws Exception {
    Map<String, SiteWeaver.Weave> one =
        Map.of(
            SiteWeaver.key("pick", "(ZLjava/lang/String;C)Ljava/lang/String;"),
            new SiteWeaver.Weave(7, false));
    Class<?> woven = define(Shapes.class, SiteWeaver.weave(bytes(Shapes.class), one));
    Object instrumented = woven.getConstructor(String.class).newInstance("robin");
    Bridge.install(recorder());
    assertEquals("robin?", invoke(instrumented, "pick", new Object[] {true, "?", 'c'}));
    assertEquals(0, invoke(instrumented, "fails", new Object[] {0}));
    assertEquals(List.of("enter 7 Shapes null", "exit 7 robin? null"), calls);
  }

  @Test
  void withNoRecorderTheCallsGoOnUnrecorded() throws Exception {
    Map<String, SiteWeaver.Weave> one =
        Map.of(SiteWeaver.key("fails", "(I)I"), new SiteWeaver.Weave(1, true));
    Class<?> woven = define(Shapes.class, SiteWeaver.weave(bytes(Shapes.class), one));
    Object instrumented = woven.getConstructor(String.class).newInstance("robin");
    assertEquals(3, invoke(instrumented, "fails", new Object[] {3}));
    assertEquals(
        new Thrown("java.lang.IllegalStateException"),
        invoke(instrumented, "fails", new Object[] {-3}));
    assertTrue(calls.isEmpty());
  }

  @Test
  void theVerifierAcceptsEveryMethodOfLibraryClassesWoven() throws Exception {
    int classes = 0;
    int linkedMethods = 0;
    for (Class<?> fromJar : List.of(ObjectMapper.class, Jvm.class, ByteBuddy.class)) {
      Path jar = Path.of(fromJar.getProtectionDomain().getCodeSource().getLocation().toURI());
      WovenJar loader = new WovenJar(jar, getClass().getClassLoader());
      for (String name : loader.names()) {
        Class<?> c;
        try {
          c = Class.forName(name, false, loader);
          // reflection links the class, and linking verifies it; nothing is initialized
          linkedMethods += c.getDeclaredMethods().length;
        } catch (VerifyError e) {
          throw new AssertionError(name + " woven does not verify", e);
        } catch (LinkageError | ClassNotFoundException optionalDependencyMissing) {
          continue;
        }
        classes++;
      }
      assertTrue(loader.wovenMethods > 1000, jar + ": " + loader.wovenMethods + " methods woven");
    }
    assertTrue(classes > 3000, classes + " classes verified");
    assertTrue(linkedMethods > 10_000, linkedMethods + " methods linked");
  }

  @Test
  void theVerifierCheckedIsTheJvmsOwn() throws Exception {
    ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, "broken/Pop", null, "java/lang/Object", null);
    MethodVisitor m =
        writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC, "pop", "()V", null, null);
    m.visitCode();
    m.visitInsn(Opcodes.POP);
    m.visitInsn(Opcodes.RETURN);
    m.visitMaxs(0, 0);
    writer.visitEnd();
    byte[] broken = writer.toByteArray();
    ClassLoader loader =
        new ClassLoader(null) {
          @Override
          protected Class<?> findClass(String name) throws ClassNotFoundException {
            if (!name.equals("broken.Pop")) {
              throw new ClassNotFoundException(name);
            }
            return defineClass(name, broken, 0, broken.length);
          }
        };
    Class<?> c = Class.forName("broken.Pop", false, loader);
    assertThrows(VerifyError.class, () -> assertEquals(1, c.getDeclaredMethods().length));
  }

  /** A throwable a call ended with, by its type. */
  record Thrown(String type) {}

  private Recorder recorder() {
    return new Recorder() {
      @Override
      public Object enter(int site, Object self, Object[] args) {
        calls.add(
            "enter "
                + site
                + " "
                + (self == null ? "null" : simpleName(self.getClass()))
                + " "
                + (args == null ? "null" : Arrays.toString(args)));
        return new Object();
      }

      @Override
      public void exit(int site, Object frame, Object result, Throwable thrown) {
        calls.add(
            "exit "
                + site
                + " "
                + result
                + " "
                + (thrown == null ? "null" : thrown.getClass().getName()));
      }
    };
  }

  /**
   * The class's name after its outer class's: {@code getSimpleName} refuses a nested class defined
   * by another loader than its outer class.
   */
  private static String simpleName(Class<?> c) {
    return c.getName().substring(c.getName().lastIndexOf('$') + 1);
  }

  private static Object invoke(Object target, String name, Object[] args) throws Exception {
    for (Method m : target.getClass().getMethods()) {
      if (m.getName().equals(name) && m.getParameterCount() == args.length) {
        try {
          return m.invoke(target, args);
        } catch (InvocationTargetException e) {
          return new Thrown(e.getCause().getClass().getName());
        }
      }
    }
    throw new NoSuchMethodException(name);
  }

  private static String descriptor(Method m) {
    return net.bytebuddy.jar.asm.Type.getMethodDescriptor(m);
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in =
        c.getClassLoader().getResourceAsStream(c.getName().replace('.', '/') + ".class")) {
      return in.readAllBytes();
    }
  }

  /** Defines the class from {@code bytes} in a loader of its own, by the same name. */
  private static Class<?> define(Class<?> original, byte[] bytes) throws Exception {
    ClassLoader loader =
        new ClassLoader(SiteWeaverTest.class.getClassLoader()) {
          @Override
          protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.equals(original.getName())) {
              synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                return c != null ? c : defineClass(name, bytes, 0, bytes.length);
              }
            }
            return super.loadClass(name, resolve);
          }
        };
    Class<?> c = Class.forName(original.getName(), false, loader);
    assertSame(loader, c.getClassLoader());
    return c;
  }

  /** The classes of one jar, every method with code woven, defined child-first. */
  private static final class WovenJar extends ClassLoader {
    private final Map<String, byte[]> classFiles = new TreeMap<>();
    int wovenMethods;

    WovenJar(Path jar, ClassLoader parent) throws IOException {
      super(parent);
      try (JarFile file = new JarFile(jar.toFile())) {
        for (JarEntry e : java.util.Collections.list(file.entries())) {
          String entry = e.getName();
          if (!entry.endsWith(".class") || entry.contains("-") || entry.startsWith("META-INF")) {
            continue;
          }
          try (InputStream in = file.getInputStream(e)) {
            classFiles.put(
                entry.substring(0, entry.length() - 6).replace('/', '.'), in.readAllBytes());
          }
        }
      }
    }

    List<String> names() {
      return List.copyOf(classFiles.keySet());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      byte[] original = classFiles.get(name);
      if (original == null) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          byte[] woven = weaveAll(name, original);
          c = defineClass(name, woven, 0, woven.length);
        }
        return c;
      }
    }

    private byte[] weaveAll(String name, byte[] classFile) {
      Map<String, SiteWeaver.Weave> methods = new HashMap<>();
      new ClassReader(classFile)
          .accept(
              new ClassVisitor(Opcodes.ASM9) {
                @Override
                public MethodVisitor visitMethod(
                    int access, String name, String desc, String signature, String[] exceptions) {
                  if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0
                      && name.charAt(0) != '<') {
                    methods.put(
                        SiteWeaver.key(name, desc),
                        new SiteWeaver.Weave(methods.size(), methods.size() % 2 == 0));
                  }
                  return null;
                }
              },
              ClassReader.SKIP_CODE);
      wovenMethods += methods.size();
      try {
        return methods.isEmpty() ? classFile : SiteWeaver.weave(classFile, methods);
      } catch (RuntimeException e) {
        throw new IllegalStateException("weaving " + name + " failed", e);
      }
    }
  }
}
