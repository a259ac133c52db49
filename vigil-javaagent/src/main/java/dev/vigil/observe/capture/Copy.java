package dev.vigil.observe.capture;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A small object that can change (a JDK map or collection, a plain bean or a record: {@link
 * BeanShape}) copied on the calling thread, one level at a time, down to values that cannot change:
 * strings, boxed integers, doubles and booleans, enum constants (kept as their names), {@code
 * UUID}s and final {@code java.time} values (written as their text), records with a {@link
 * RecordShape}; an {@code Optional} stands for its content, as Vigil's mapper writes it. The writer
 * thread writes a copy into the event's payload itself ({@code CopyValues}), as Vigil's own Jackson
 * mapper would have written the object: copying costs the calling thread a few field reads and one
 * array a level, where Jackson's serialization was most of a capture's cost. A value with anything
 * else inside, more than {@value #MAX_VALUES} values or more than {@value #MAX_DEPTH} levels, has
 * no copy and is captured as a {@link Snapshot}, as before.
 */
public final class Copy {
  /** What a copy was taken of, and so how it is written. */
  public enum Form {
    /** A bean: its fields' names and values, in declaration order. */
    BEAN,
    /** A map with string keys: its keys and values, in its order. */
    MAP,
    /** A collection: its elements, in its order. */
    ARRAY
  }

  /** Copies with more values than this, all levels counted, are not taken. */
  static final int MAX_VALUES = 64;

  /** Copies deeper than this are not taken. */
  static final int MAX_DEPTH = 4;

  private final Form form;
  private final String[] names;
  private final Object[] values;

  private Copy(Form form, String[] names, Object[] values) {
    this.form = form;
    this.names = names;
    this.values = values;
  }

  /** Its form. */
  public Form form() {
    return form;
  }

  /** The names of a bean's fields or a map's keys, null for an array: never to be changed. */
  public String[] names() {
    return names;
  }

  /** The values, each null, a value that cannot change or a copy: never to be changed. */
  public Object[] values() {
    return values;
  }

  /**
   * The copy as a {@code LinkedHashMap} (a bean, a map) or an {@code ArrayList}, copies inside made
   * so too: what Vigil's mapper writes as the object itself, for the writer's way of a value too
   * long to write whole.
   */
  public Object rebuilt() {
    if (form == Form.ARRAY) {
      List<Object> list = new ArrayList<>(values.length);
      for (Object v : values) {
        list.add(v instanceof Copy c ? c.rebuilt() : v);
      }
      return list;
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      map.put(names[i], values[i] instanceof Copy c ? c.rebuilt() : values[i]);
    }
    return map;
  }

  /**
   * What {@link #of} does with a value of a class at the top: its kind and, for a bean, its shape,
   * looked up once per class by the caller ({@code ValueCapture}) with what it looks up itself.
   */
  record Top(Kind kind, BeanShape bean) {}

  /** The {@link Top} of {@code type}; never throws (a class that cannot be read has no copy). */
  static Top top(Class<?> type) {
    try {
      // at the top, an Optional of an empty map is written by its toString(): no copy
      if (!CaptureMapper.isOptional(type)) {
        Kind kind = KINDS.get(type);
        return new Top(kind, kind == Kind.BEAN ? BeanShape.of(type) : null);
      }
    } catch (RuntimeException | LinkageError e) {
      // as when the copy itself fails: Jackson's way reports it
    }
    return new Top(Kind.OTHER, null);
  }

  /**
   * The copy of {@code value}, whose class's {@link Top} is {@code top}, or null when it has none
   * (see the class). Never throws.
   */
  static Copy of(Object value, Top top) {
    try {
      // a value kept or named at the top is not a copy: Jackson's way writes it
      Object copy = copy(value, top.kind(), top.bean(), 0, new int[] {MAX_VALUES});
      return copy instanceof Copy c ? c : null;
    } catch (RuntimeException | IllegalAccessException e) {
      return null; // a map changed while it was read, say: Jackson's way reports it
    }
  }

  /** Stands for a value that has no copy. */
  private static final Object NONE = new Object();

  /**
   * The value itself when it cannot change, an enum's name, a {@link Copy}, or {@link #NONE};
   * {@code left[0]} counts down the values still allowed.
   */
  private static Object copy(Object v, int depth, int[] left) throws IllegalAccessException {
    if (v == null) {
      return null;
    }
    Class<?> type = v.getClass();
    if (type == String.class || type == Integer.class) {
      return v; // the commonest values inside, kept without the look-up by class
    }
    Kind kind = KINDS.get(type);
    return copy(v, kind, kind == Kind.BEAN ? BeanShape.of(type) : null, depth, left);
  }

  /** {@link #copy(Object, int, int[])} of a value of {@code kind} ({@code bean}: its shape). */
  private static Object copy(Object v, Kind kind, BeanShape bean, int depth, int[] left)
      throws IllegalAccessException {
    return switch (kind) {
      case KEEP -> v;
      case NAME -> ((Enum<?>) v).name();
      // written as its content, in its place
      case OPTIONAL -> copy(CaptureMapper.optionalContent(v), depth, left);
      case MAP -> depth < MAX_DEPTH ? map((Map<?, ?>) v, depth, left) : NONE;
      case COLLECTION -> depth < MAX_DEPTH ? array((Collection<?>) v, depth, left) : NONE;
      case BEAN -> depth < MAX_DEPTH ? bean(v, bean, depth, left) : NONE;
      case OTHER -> NONE;
    };
  }

  private static Object map(Map<?, ?> map, int depth, int[] left) throws IllegalAccessException {
    int n = map.size();
    if ((left[0] -= n) < 0) {
      return NONE;
    }
    String[] names = new String[n];
    Object[] values = new Object[n];
    int i = 0;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (i == n || !(e.getKey() instanceof String key)) {
        return NONE; // a key Jackson writes apart, or a map that grew while it was read
      }
      Object v = copy(e.getValue(), depth + 1, left);
      if (v == NONE) {
        return NONE;
      }
      names[i] = key;
      values[i++] = v;
    }
    return i == n ? new Copy(Form.MAP, names, values) : NONE;
  }

  private static Object array(Collection<?> collection, int depth, int[] left)
      throws IllegalAccessException {
    int n = collection.size();
    if ((left[0] -= n) < 0) {
      return NONE;
    }
    Object[] values = new Object[n];
    int i = 0;
    for (Object element : collection) {
      if (i == n) {
        return NONE; // it grew while it was read
      }
      Object v = copy(element, depth + 1, left);
      if (v == NONE) {
        return NONE;
      }
      values[i++] = v;
    }
    return i == n ? new Copy(Form.ARRAY, null, values) : NONE;
  }

  private static Object bean(Object bean, BeanShape shape, int depth, int[] left)
      throws IllegalAccessException {
    String[] names = shape.names();
    int n = names.length;
    if ((left[0] -= n) < 0) {
      return NONE;
    }
    Object[] values = new Object[n];
    for (int i = 0; i < n; i++) {
      Object v = copy(shape.value(bean, i), depth + 1, left);
      if (v == NONE) {
        return NONE;
      }
      values[i] = v;
    }
    return new Copy(Form.BEAN, names, values);
  }

  /** What a copy does with a value of a class. */
  enum Kind {
    /** Kept as it is: it cannot change. */
    KEEP,
    /** A plain enum's constant: its name. */
    NAME,
    /** An {@code Optional} or a primitive one: its content, or null. */
    OPTIONAL,
    MAP,
    COLLECTION,
    BEAN,
    /** No copy: the whole value is captured as a {@link Snapshot}. */
    OTHER
  }

  private static final ClassValue<Kind> KINDS =
      new ClassValue<>() {
        @Override
        protected Kind computeValue(Class<?> type) {
          return kind(type);
        }
      };

  private static Kind kind(Class<?> type) {
    if (Enum.class.isAssignableFrom(type)) {
      // a constant with a body of its own is a class apart: left to Jackson
      return type.isEnum() && RecordShape.plainEnum(type) ? Kind.NAME : Kind.OTHER;
    }
    if (type == String.class
        || type == Integer.class
        || type == Long.class
        || type == Short.class
        || type == Byte.class
        || type == Double.class
        || type == Boolean.class
        || type == UUID.class
        || RecordShape.isTimeText(type.getName(), Modifier.isFinal(type.getModifiers()))
        || RecordShape.of(type) != null) {
      return Kind.KEEP;
    }
    if (CaptureMapper.isOptional(type)) {
      return Kind.OPTIONAL;
    }
    if (type.getName().startsWith("java.util.")) {
      if (Map.class.isAssignableFrom(type)) {
        return Kind.MAP;
      }
      if (Collection.class.isAssignableFrom(type)) {
        return Kind.COLLECTION;
      }
      return Kind.OTHER;
    }
    return BeanShape.of(type) != null ? Kind.BEAN : Kind.OTHER;
  }
}
