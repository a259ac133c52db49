package dev.vigil.observe.agent;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads the frameworks' own objects (LangChain4j's {@code ToolExecutionRequest}, {@code InvocationContext} and
 * {@code ToolExecutionResult}; Spring AI's {@code ToolCallback} and {@code AssistantMessage}) by reflection, since
 * Vigil is compiled against neither framework and must work with whichever version the application ships. Every
 * accessor returns null rather than throw.
 */
final class FrameworkAccess {
  /** One tool call the model asked for, as Spring AI's {@code AssistantMessage.ToolCall} carries it. */
  record ToolCallRef(String id, String name) {}

  private static final Method NONE;

  static {
    try {
      NONE = Object.class.getMethod("hashCode");
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Map<Class<?>, Map<String, Method>> cache = new ConcurrentHashMap<>();

  /** The no-argument method {@code name} of {@code target}, called, or null. */
  Object call(Object target, String name) {
    if (target == null) {
      return null;
    }
    Method m = cache.computeIfAbsent(target.getClass(), c -> new ConcurrentHashMap<>())
        .computeIfAbsent(name, n -> find(target.getClass(), n));
    if (m == NONE) {
      return null;
    }
    try {
      return m.invoke(target);
    } catch (Throwable t) {
      return null;
    }
  }

  /** {@link #call} as text. */
  String text(Object target, String name) {
    Object v = call(target, name);
    return v == null ? null : v.toString();
  }

  /** The tool calls of a Spring AI {@code AssistantMessage}, in order. */
  List<ToolCallRef> toolCalls(Object assistantMessage) {
    Object calls = call(assistantMessage, "getToolCalls");
    List<ToolCallRef> out = new ArrayList<>();
    if (calls instanceof Iterable<?> it) {
      for (Object call : it) {
        out.add(new ToolCallRef(text(call, "id"), text(call, "name")));
      }
    }
    return out;
  }

  /** Finds {@code name()} on a public class or interface, since the runtime class may be package-private. */
  private static Method find(Class<?> type, String name) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      Method m = declaredPublic(c, name);
      if (m != null) {
        return m;
      }
      for (Class<?> i : allInterfaces(c)) {
        m = declaredPublic(i, name);
        if (m != null) {
          return m;
        }
      }
    }
    return NONE;
  }

  private static Method declaredPublic(Class<?> c, String name) {
    if (!Modifier.isPublic(c.getModifiers())) {
      return null;
    }
    try {
      Method m = c.getMethod(name);
      return Modifier.isPublic(m.getDeclaringClass().getModifiers()) ? m : null;
    } catch (NoSuchMethodException | SecurityException e) {
      return null;
    }
  }

  private static List<Class<?>> allInterfaces(Class<?> c) {
    List<Class<?>> out = new ArrayList<>();
    for (Class<?> i : c.getInterfaces()) {
      out.add(i);
      out.addAll(allInterfaces(i));
    }
    return out;
  }
}
