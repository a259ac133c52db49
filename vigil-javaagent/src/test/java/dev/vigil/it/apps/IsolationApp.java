package dev.vigil.it.apps;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import java.util.TreeMap;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.ClassFileVersion;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/** An application that ships its own (older) Jackson and Byte Buddy and uses both. */
public final class IsolationApp {
  /** An included method, so the agent records something. */
  public static String describe(String library, String version) {
    return library + " " + version;
  }

  public static void main(String[] args) throws Exception {
    Map<String, Object> doc = new TreeMap<>(Map.of("a", 1, "b", "two"));
    System.out.println(new ObjectMapper().writeValueAsString(doc));
    System.out.println(describe("jackson", jarOf(ObjectMapper.class)));
    Class<?> made =
        new ByteBuddy(ClassFileVersion.JAVA_V8)
            .subclass(Object.class)
            .method(ElementMatchers.named("toString"))
            .intercept(FixedValue.value("made by the application's Byte Buddy"))
            .make()
            .load(IsolationApp.class.getClassLoader())
            .getLoaded();
    System.out.println(made.getDeclaredConstructor().newInstance());
    System.out.println(describe("byte-buddy", jarOf(ByteBuddy.class)));
  }

  private static String jarOf(Class<?> type) throws Exception {
    return new java.io.File(type.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getName();
  }

  private IsolationApp() {}
}
