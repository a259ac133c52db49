package dev.vigil.observe.install;

import dev.vigil.observe.capture.RecordShape;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Whether a record type, described from class files while its tool is instrumented, will be written
 * from its fields rather than through Jackson: the rules of {@link RecordShape} (docs/AGENT.md,
 * what is captured), applied to {@link ClassDescription}s, so that nothing is loaded. For a tool
 * whose values are all such records, strings or numbers the {@link Instrumenter} does not build
 * Vigil's Jackson mapper ahead of the first call (it is needed only to cut a record longer than the
 * size limit). When a description cannot be read the answer is no, and the mapper is built ahead as
 * for any object; should a record pass here and not there, the mapper is built at its first capture
 * instead, which costs time once and changes no event.
 */
final class RecordDescriptions {
  private RecordDescriptions() {}

  /** Whether the type named {@code name} is a record written from its fields; never throws. */
  static boolean writtenFromFields(String name, ClassDescriptions classes) {
    try {
      ClassDescription type = classes.describe(name);
      return type != null && record(type, classes, new HashSet<>());
    } catch (RuntimeException | LinkageError unreadable) {
      return false;
    }
  }

  private static boolean record(
      ClassDescription type, ClassDescriptions classes, Set<String> enclosing) {
    if (!type.isRecord()
        || enclosing.size() >= RecordShape.MAX_DEPTH
        || !enclosing.add(type.name())
        || jackson(type.annotations(), classes)
        || jacksonInterface(type)
        || type.components().isEmpty()) {
      return false;
    }
    for (ClassDescription.Component c : type.components()) {
      if (jackson(c.annotations(), classes) || !component(type, c, classes, enclosing)) {
        return false;
      }
    }
    enclosing.remove(type.name());
    return true;
  }

  private static boolean component(
      ClassDescription owner,
      ClassDescription.Component c,
      ClassDescriptions classes,
      Set<String> enclosing) {
    for (ClassDescription.Field f : owner.fields()) {
      if (f.name().equals(c.name()) && jackson(f.annotations(), classes)) {
        return false;
      }
    }
    for (ClassDescription.Method m : owner.methods()) {
      if (m.name().equals(c.name())
          && m.parameterTypes().isEmpty()
          && jackson(m.annotations(), classes)) {
        return false;
      }
    }
    String name = c.type();
    if (RecordShape.isNamedKind(name)) {
      return true;
    }
    ClassDescription t = classes.describe(name);
    if (t == null) {
      return false;
    }
    if (t.is(Opcodes.ACC_ENUM)) {
      return plainEnum(t, classes);
    }
    return RecordShape.isTimeText(name, t.is(Opcodes.ACC_FINAL)) || record(t, classes, enclosing);
  }

  /** An enum written by its constants' names: nothing of Jackson's declared on it. */
  private static boolean plainEnum(ClassDescription t, ClassDescriptions classes) {
    if (jackson(t.annotations(), classes) || jacksonInterface(t)) {
      return false;
    }
    for (ClassDescription.Field f : t.fields()) {
      if (jackson(f.annotations(), classes)) {
        return false;
      }
    }
    for (ClassDescription.Method m : t.methods()) {
      if (jackson(m.annotations(), classes)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether one of {@code annotations} is Jackson's, or is annotated with one of Jackson's (an
   * annotation type whose class file cannot be read counts as neither).
   */
  private static boolean jackson(
      List<ClassDescription.Annotation> annotations, ClassDescriptions classes) {
    for (ClassDescription.Annotation a : annotations) {
      if (RecordShape.isJackson(a.type())) {
        return true;
      }
      ClassDescription type = classes.describe(a.type());
      if (type == null) {
        continue;
      }
      for (ClassDescription.Annotation meta : type.annotations()) {
        if (RecordShape.isJackson(meta.type())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean jacksonInterface(ClassDescription t) {
    for (String i : t.interfaces()) {
      if (RecordShape.isJackson(i)) {
        return true;
      }
    }
    return false;
  }
}
