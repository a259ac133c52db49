package dev.vigil.observe.capture;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a framework's own objects by reflection (a {@link Framework}'s tool-call requests, contexts
 * and results), since Vigil is compiled against no framework and must work with whichever version
 * the application ships. Methods and fields are looked up once per class. Every accessor returns
 * null rather than throw.
 */
public final class FrameworkAccess {
  private static final Method NONE;

  static {
    try {
      NONE = Object.class.getMethod("hashCode");
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private static final Field NO_FIELD;

  static {
    try {
      NO_FIELD = FrameworkAccess.class.getDeclaredField("cache");
    } catch (NoSuchFieldException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Map<Class<?>, Map<String, Method>> cache = new ConcurrentHashMap<>();
  private final Map<Class<?>, Map<String, Field>> fields = new ConcurrentHashMap<>();

  /** The no-argument method {@code name} of {@code target}, called, or null. */
  // NONE is a sentinel for "no such method", compared by identity
  @SuppressWarnings("ReferenceEquality")
  public Object call(Object target, String name) {
    if (target == null) {
      return null;
    }
    Method m =
        cache
            .computeIfAbsent(target.getClass(), c -> new ConcurrentHashMap<>())
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

  /**
   * The value of the field {@code name} declared by the class of {@code target} or a superclass, or
   * null (for framework objects that keep what Vigil needs in a private field, such as Spring AI's
   * call spec its request).
   */
  // NO_FIELD is a sentinel for "no such field", compared by identity
  @SuppressWarnings("ReferenceEquality")
  public Object field(Object target, String name) {
    if (target == null) {
      return null;
    }
    Field f =
        fields
            .computeIfAbsent(target.getClass(), c -> new ConcurrentHashMap<>())
            .computeIfAbsent(name, n -> findField(target.getClass(), n));
    if (f == NO_FIELD) {
      return null;
    }
    try {
      return f.get(target);
    } catch (Throwable t) {
      return null;
    }
  }

  /**
   * {@code String.valueOf(value)}, or a placeholder naming the type when its {@code toString()}
   * throws.
   */
  public static String textOf(Object value) {
    try {
      return String.valueOf(value);
    } catch (Throwable t) {
      return "<unreadable "
          + value.getClass().getName()
          + ": toString threw "
          + t.getClass().getName()
          + ">";
    }
  }

  /** {@link #call} as text. */
  public String text(Object target, String name) {
    Object v = call(target, name);
    return v == null ? null : textOf(v);
  }

  /**
   * Finds {@code name()} on a public class or interface, since the runtime class may be
   * package-private.
   */
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

  private static Field findField(Class<?> type, String name) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      try {
        Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return f;
      } catch (NoSuchFieldException notHere) {
        // look in the superclass
      } catch (RuntimeException inaccessible) {
        return NO_FIELD;
      }
    }
    return NO_FIELD;
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
