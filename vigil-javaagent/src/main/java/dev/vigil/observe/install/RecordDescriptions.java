package dev.vigil.observe.install;

import dev.vigil.observe.capture.RecordShape;
import java.util.HashSet;
import java.util.Set;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.annotation.AnnotationList;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.RecordComponentDescription;
import net.bytebuddy.description.type.TypeDescription;

/**
 * Whether a record type, described from class files while its tool is instrumented, will be written
 * from its fields rather than through Jackson: the rules of {@link RecordShape} (docs/AGENT.md,
 * what is captured), applied to a type description, so that nothing is loaded. For a tool whose
 * values are all such records, strings or numbers the {@link Instrumenter} does not build Vigil's
 * Jackson mapper ahead of the first call (it is needed only to cut a record longer than the size
 * limit). When a description cannot be read the answer is no, and the mapper is built ahead as for
 * any object; should a record pass here and not there, the mapper is built at its first capture
 * instead, which costs time once and changes no event.
 */
final class RecordDescriptions {
  private RecordDescriptions() {}

  /** Whether {@code type} is a record written from its fields; never throws. */
  static boolean writtenFromFields(TypeDescription type) {
    try {
      return record(type, new HashSet<>());
    } catch (RuntimeException | LinkageError unreadable) {
      return false;
    }
  }

  private static boolean record(TypeDescription type, Set<String> enclosing) {
    if (!type.isRecord()
        || enclosing.size() >= RecordShape.MAX_DEPTH
        || !enclosing.add(type.getName())
        || jackson(type.getDeclaredAnnotations())
        || jacksonInterface(type)
        || type.getRecordComponents().isEmpty()) {
      return false;
    }
    for (RecordComponentDescription.InDefinedShape c : type.getRecordComponents()) {
      if (jackson(c.getDeclaredAnnotations()) || !component(type, c, enclosing)) {
        return false;
      }
    }
    enclosing.remove(type.getName());
    return true;
  }

  private static boolean component(
      TypeDescription owner, RecordComponentDescription.InDefinedShape c, Set<String> enclosing) {
    for (FieldDescription.InDefinedShape f : owner.getDeclaredFields()) {
      if (f.getName().equals(c.getActualName()) && jackson(f.getDeclaredAnnotations())) {
        return false;
      }
    }
    for (MethodDescription.InDefinedShape m : owner.getDeclaredMethods()) {
      if (m.getName().equals(c.getActualName())
          && m.getParameters().isEmpty()
          && jackson(m.getDeclaredAnnotations())) {
        return false;
      }
    }
    TypeDescription t = c.getType().asErasure();
    if (RecordShape.isNamedKind(t.getName())) {
      return true;
    }
    if (t.isEnum()) {
      return plainEnum(t);
    }
    return RecordShape.isTimeText(t.getName(), t.isFinal()) || record(t, enclosing);
  }

  /** An enum written by its constants' names: nothing of Jackson's declared on it. */
  private static boolean plainEnum(TypeDescription t) {
    if (jackson(t.getDeclaredAnnotations()) || jacksonInterface(t)) {
      return false;
    }
    for (FieldDescription.InDefinedShape f : t.getDeclaredFields()) {
      if (jackson(f.getDeclaredAnnotations())) {
        return false;
      }
    }
    for (MethodDescription.InDefinedShape m : t.getDeclaredMethods()) {
      if (jackson(m.getDeclaredAnnotations())) {
        return false;
      }
    }
    return true;
  }

  /** Whether one of {@code annotations} is Jackson's, or is annotated with one of Jackson's. */
  private static boolean jackson(AnnotationList annotations) {
    for (AnnotationDescription a : annotations) {
      TypeDescription type = a.getAnnotationType();
      if (RecordShape.isJackson(type.getName())) {
        return true;
      }
      for (AnnotationDescription meta : type.getDeclaredAnnotations()) {
        if (RecordShape.isJackson(meta.getAnnotationType().getName())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean jacksonInterface(TypeDescription t) {
    for (TypeDescription.Generic i : t.getInterfaces()) {
      if (RecordShape.isJackson(i.asErasure().getName())) {
        return true;
      }
    }
    return false;
  }
}
