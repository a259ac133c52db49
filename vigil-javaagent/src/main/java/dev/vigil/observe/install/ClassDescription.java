package dev.vigil.observe.install;

import java.util.List;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * What the instrumenter reads of a class file to decide what to instrument and how to capture it,
 * without loading the class: its name, modifiers and supertypes, its methods with their parameter
 * names, and the annotations on it and on its fields, methods and record components. Names are
 * binary names ({@code a.b.Outer$Inner}), as {@link Class#getName} gives.
 *
 * @param name the class's name
 * @param access the class's access flags
 * @param superName the superclass's name; null for {@code java.lang.Object} and for interfaces
 * @param interfaces the names of the interfaces it implements directly
 * @param annotations the annotations on the class
 * @param fields its fields
 * @param methods its methods and constructors
 * @param components its record components, empty for a class that is no record
 */
record ClassDescription(
    String name,
    int access,
    String superName,
    List<String> interfaces,
    List<Annotation> annotations,
    List<Field> fields,
    List<Method> methods,
    List<Component> components) {

  /** An annotation: its type's name, and its {@code name} element when that is set to a string. */
  record Annotation(String type, String nameValue) {}

  /** A field: its name and annotations. */
  record Field(String name, List<Annotation> annotations) {}

  /**
   * A method: access flags, name, descriptor, its parameters' names (null where the class file
   * names none), and annotations.
   */
  record Method(
      int access,
      String name,
      String descriptor,
      List<String> parameterNames,
      List<Annotation> annotations) {
    boolean is(int flag) {
      return (access & flag) != 0;
    }

    /** A method proper: neither a constructor nor a class initializer. */
    boolean isMethod() {
      return name.charAt(0) != '<';
    }

    /** The names of its parameters' types (erased), as {@link Class#getName} gives them. */
    List<String> parameterTypes() {
      Type[] types = Type.getArgumentTypes(descriptor);
      String[] names = new String[types.length];
      for (int i = 0; i < types.length; i++) {
        names[i] = typeName(types[i]);
      }
      return List.of(names);
    }

    /** The name of its return type (erased), {@code void} included. */
    String returnType() {
      return typeName(Type.getReturnType(descriptor));
    }
  }

  /** A record component: its name, descriptor and annotations. */
  record Component(String name, String descriptor, List<Annotation> annotations) {
    /** The name of its type (erased). */
    String type() {
      return typeName(Type.getType(descriptor));
    }
  }

  boolean is(int flag) {
    return (access & flag) != 0;
  }

  /**
   * Whether it is a record, as {@link Class#isRecord} says: a final class extending {@code
   * java.lang.Record} with a {@code Record} attribute.
   */
  boolean isRecord() {
    return "java.lang.Record".equals(superName) && is(Opcodes.ACC_FINAL) && is(Opcodes.ACC_RECORD);
  }

  /** A type's name as {@link Class#getName} gives it ({@code int}, {@code [Ljava.lang.String;}). */
  static String typeName(Type type) {
    return type.getSort() == Type.ARRAY
        ? type.getDescriptor().replace('/', '.')
        : type.getClassName();
  }

  /** Whether {@code name} is a primitive type's name, {@code void} included. */
  static boolean isPrimitive(String name) {
    return switch (name) {
      case "boolean", "byte", "char", "short", "int", "long", "float", "double", "void" -> true;
      default -> false;
    };
  }
}
