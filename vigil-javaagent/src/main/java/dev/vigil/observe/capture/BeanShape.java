package dev.vigil.observe.capture;

import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of a plain bean whose fields the calling thread can copy ({@link Copy}) instead of
 * having Jackson serialize it: a class of the application (no JDK class) that extends only {@code
 * Object}, or a record, that implements no interface but {@code Serializable}, declares 1 to 32
 * instance fields that are neither transient nor synthetic, and on which nothing of Jackson's is
 * declared (on the class, its components, fields, methods and constructors, or its fields' declared
 * types). For such a class Vigil's own mapper ({@link CaptureMapper}: fields only, any visibility)
 * writes exactly these fields, in the order the class declares them and under their names, so a
 * copy of their values written in that order is what the mapper would write. A record whose values
 * can never change needs no copy ({@link RecordShape}). Any other class has no shape and is
 * captured as before.
 */
final class BeanShape {
  /** Beans with more fields than this are serialized by Jackson, as before. */
  static final int MAX_FIELDS = 32;

  private static final ClassValue<BeanShape> SHAPES =
      new ClassValue<>() {
        @Override
        protected BeanShape computeValue(Class<?> type) {
          try {
            return analyze(type);
          } catch (RuntimeException | LinkageError e) {
            return null; // a field that cannot be made accessible (a module not open), say
          }
        }
      };

  private final String[] names;
  private final Field[] fields;

  private BeanShape(String[] names, Field[] fields) {
    this.names = names;
    this.fields = fields;
  }

  /** The shape of {@code type}, or null when it is no such plain bean. */
  static BeanShape of(Class<?> type) {
    return SHAPES.get(type);
  }

  /** The fields' names, in declaration order: shared, never to be changed. */
  String[] names() {
    return names;
  }

  /** The value of field {@code i} of {@code bean}, a primitive boxed. */
  Object value(Object bean, int i) throws IllegalAccessException {
    return fields[i].get(bean);
  }

  private static BeanShape analyze(Class<?> type) {
    if (type.isEnum()
        || type.isArray()
        || type.isInterface()
        || type.isPrimitive()
        || type.isAnonymousClass()
        || type.isLocalClass()
        || type.isSynthetic()
        || type.isHidden()
        || type.getSuperclass() != (type.isRecord() ? Record.class : Object.class)
        || CaptureMapper.isJdk(type.getName())
        || RecordShape.jackson(type)) {
      return null;
    }
    for (Class<?> i : type.getInterfaces()) {
      if (i != Serializable.class) {
        return null; // Jackson writes an Iterable as an array, say
      }
    }
    if (type.isRecord()) {
      for (RecordComponent rc : type.getRecordComponents()) {
        if (RecordShape.jackson(rc)) {
          return null;
        }
      }
    }
    for (Method m : type.getDeclaredMethods()) {
      if (RecordShape.jackson(m)) {
        return null; // a @JsonValue or @JsonAnyGetter changes what is written
      }
    }
    for (Constructor<?> c : type.getDeclaredConstructors()) {
      if (RecordShape.jackson(c)) {
        return null; // a @JsonCreator's properties come first
      }
    }
    List<Field> kept = new ArrayList<>();
    for (Field f : type.getDeclaredFields()) {
      int modifiers = f.getModifiers();
      if (Modifier.isStatic(modifiers)) {
        continue;
      }
      if (f.isSynthetic()
          || RecordShape.jackson(f)
          || RecordShape.jackson(f.getType())
          || RecordShape.jacksonInterface(f.getType())) {
        return null;
      }
      if (!Modifier.isTransient(modifiers)) {
        kept.add(f);
      }
    }
    if (kept.isEmpty() || kept.size() > MAX_FIELDS) {
      return null; // a bean without fields is recorded by its toString()
    }
    String[] names = new String[kept.size()];
    Field[] fields = new Field[kept.size()];
    for (int i = 0; i < fields.length; i++) {
      fields[i] = kept.get(i);
      fields[i].setAccessible(true);
      names[i] = fields[i].getName();
    }
    return new BeanShape(names, fields);
  }
}
