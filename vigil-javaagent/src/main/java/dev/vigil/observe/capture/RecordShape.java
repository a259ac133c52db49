package dev.vigil.observe.capture;

import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The shape of a record whose value can never change once made, so that the calling thread can hand
 * the record itself to the writer instead of a snapshot (docs/AGENT.md, what is captured): a record
 * whose every component is declared as a primitive, a boxed primitive, a {@code String}, an enum, a
 * {@code UUID}, a final {@code java.time} class, or such a record in turn (no record inside
 * itself), and on which nothing of Jackson's is declared (annotations, interfaces), so that the
 * writer's direct encoding ({@code RecordValues}) writes what Vigil's own Jackson mapper would. Its
 * fields are read directly, never through its accessors: no application code runs. Any other class
 * has no shape and is captured as before.
 */
public final class RecordShape {
  /** How a component's value is written. */
  public enum Kind {
    /** A {@code String}. */
    STRING,
    /** An {@code int}, {@code short} or {@code byte}. */
    INT,
    /** A {@code long}. */
    LONG,
    /** A {@code double}. */
    DOUBLE,
    /** A {@code boolean}. */
    BOOLEAN,
    /** A boxed {@code Integer}, {@code Long}, {@code Short}, {@code Byte}, {@code Double}. */
    BOXED_NUMBER,
    /** A boxed {@code Boolean}. */
    BOXED_BOOLEAN,
    /** An enum constant, written as its name. */
    ENUM,
    /** A {@code UUID} or a {@code java.time} value, written as its text. */
    TEXT,
    /** A record with a shape of its own. */
    RECORD
  }

  /**
   * One component.
   *
   * @param name its name, as the JSON property
   * @param field the record's private field, made accessible
   * @param kind how its value is written
   * @param nested the shape of a {@link Kind#RECORD} component, else null
   */
  public record Component(String name, Field field, Kind kind, RecordShape nested) {}

  private static final ClassValue<RecordShape> SHAPES =
      new ClassValue<>() {
        @Override
        protected RecordShape computeValue(Class<?> type) {
          return analyze(type, new HashSet<>());
        }
      };

  /** Records nested deeper than this have no shape. */
  public static final int MAX_DEPTH = 8;

  private final List<Component> components;

  private RecordShape(List<Component> components) {
    this.components = List.copyOf(components);
  }

  /** The components, in declaration order. */
  public List<Component> components() {
    return components;
  }

  /**
   * The shape of {@code type}, or null when its values may change or Jackson may write it apart.
   */
  public static RecordShape of(Class<?> type) {
    // Class.isRecord is a native call each time; a ClassValue is a look-up, also for non-records
    return SHAPES.get(type);
  }

  private static RecordShape analyze(Class<?> type, Set<Class<?>> enclosing) {
    if (!type.isRecord() || enclosing.size() >= MAX_DEPTH || !enclosing.add(type)) {
      return null;
    }
    try {
      if (jackson(type) || jacksonInterface(type)) {
        return null;
      }
      RecordComponent[] components = type.getRecordComponents();
      if (components.length == 0) {
        return null; // captured by its toString(), as an object without fields is
      }
      List<Component> out = new ArrayList<>();
      for (RecordComponent rc : components) {
        Component c = component(type, rc, enclosing);
        if (c == null) {
          return null;
        }
        out.add(c);
      }
      return new RecordShape(out);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null; // a field that cannot be made accessible (a module not open to Vigil), say
    } finally {
      enclosing.remove(type);
    }
  }

  private static Component component(Class<?> owner, RecordComponent rc, Set<Class<?>> enclosing)
      throws ReflectiveOperationException {
    Field field = owner.getDeclaredField(rc.getName());
    Method accessor = rc.getAccessor();
    if (jackson(rc) || jackson(field) || jackson(accessor)) {
      return null;
    }
    Class<?> t = field.getType();
    Kind kind = kind(t);
    RecordShape nested = null;
    if (kind == null && t.isRecord()) {
      nested = analyze(t, enclosing);
      kind = nested == null ? null : Kind.RECORD;
    }
    if (kind == null) {
      return null;
    }
    field.setAccessible(true);
    return new Component(rc.getName(), field, kind, nested);
  }

  private static Kind kind(Class<?> t) {
    Kind named = NAMED.get(t.getName()); // java.* names: only the bootstrap loader defines them
    if (named != null) {
      return named;
    }
    if (t.isEnum()) {
      return plainEnum(t) ? Kind.ENUM : null;
    }
    return isTimeText(t.getName(), Modifier.isFinal(t.getModifiers())) ? Kind.TEXT : null;
  }

  /**
   * The component types known by their name alone: {@code String}, the primitives and boxed types
   * written as numbers or booleans ({@code float}, {@code char} and their boxes are not), and
   * {@code UUID}.
   */
  private static final Map<String, Kind> NAMED =
      Map.ofEntries(
          Map.entry("java.lang.String", Kind.STRING),
          Map.entry("int", Kind.INT),
          Map.entry("short", Kind.INT),
          Map.entry("byte", Kind.INT),
          Map.entry("long", Kind.LONG),
          Map.entry("double", Kind.DOUBLE),
          Map.entry("boolean", Kind.BOOLEAN),
          Map.entry("java.lang.Integer", Kind.BOXED_NUMBER),
          Map.entry("java.lang.Long", Kind.BOXED_NUMBER),
          Map.entry("java.lang.Short", Kind.BOXED_NUMBER),
          Map.entry("java.lang.Byte", Kind.BOXED_NUMBER),
          Map.entry("java.lang.Double", Kind.BOXED_NUMBER),
          Map.entry("java.lang.Boolean", Kind.BOXED_BOOLEAN),
          Map.entry("java.util.UUID", Kind.TEXT));

  /**
   * Whether a component declared with the type named {@code typeName} is written as it is without
   * looking further: a {@code String}, a primitive or boxed type written as a number or a boolean,
   * or a {@code UUID}. For the instrumenter's reading of class files, which loads nothing.
   */
  public static boolean isNamedKind(String typeName) {
    return NAMED.containsKey(typeName);
  }

  /** Whether a type that is no enum is written as its text: a final {@code java.time} class. */
  public static boolean isTimeText(String typeName, boolean isFinal) {
    return isFinal && typeName.startsWith("java.time.");
  }

  /** An enum Jackson writes by its constants' names: nothing of Jackson's declared on it. */
  static boolean plainEnum(Class<?> t) {
    if (jackson(t) || jacksonInterface(t)) {
      return false;
    }
    for (Field f : t.getDeclaredFields()) {
      if (jackson(f)) {
        return false;
      }
    }
    for (Method m : t.getDeclaredMethods()) {
      if (jackson(m)) {
        return false;
      }
    }
    return true;
  }

  /** Whether an annotation of Jackson's, or one annotated with one, is on {@code e}. */
  static boolean jackson(AnnotatedElement e) {
    for (Annotation a : e.getAnnotations()) {
      Class<? extends Annotation> type = a.annotationType();
      if (isJackson(type)) {
        return true;
      }
      for (Annotation meta : type.getAnnotations()) {
        if (isJackson(meta.annotationType())) {
          return true;
        }
      }
    }
    return false;
  }

  static boolean jacksonInterface(Class<?> t) {
    for (Class<?> i : t.getInterfaces()) {
      if (isJackson(i)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isJackson(Class<?> type) {
    return isJackson(type.getName());
  }

  /** Whether the type named {@code typeName} is Jackson's. */
  public static boolean isJackson(String typeName) {
    return typeName.startsWith("com.fasterxml.jackson.");
  }
}
