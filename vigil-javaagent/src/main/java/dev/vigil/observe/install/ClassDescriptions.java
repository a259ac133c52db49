package dev.vigil.observe.install;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.RecordComponentVisitor;
import net.bytebuddy.jar.asm.Type;

/**
 * Reads {@link ClassDescription}s from class files, found by a class loader as resources, and keeps
 * each one it read; for the instrumenter, one per class being transformed. Reading a class file
 * loads nothing: this is what the instrumenter uses instead of Byte Buddy's type pool, whose own
 * classes cost a short process over 100 ms to load (docs/BENCHMARKS.md).
 */
final class ClassDescriptions {
  private final Function<String, byte[]> classFiles;
  private final Map<String, ClassDescription> read = new HashMap<>();

  /**
   * Descriptions of the class files {@code classFiles} gives by class name (null when there is
   * none).
   */
  ClassDescriptions(Function<String, byte[]> classFiles) {
    this.classFiles = classFiles;
  }

  /** Descriptions of the classes {@code loader} finds (the boot loader's when null). */
  static ClassDescriptions of(ClassLoader loader) {
    return new ClassDescriptions(new LoaderFiles(loader));
  }

  /**
   * The class files a loader finds, a record rather than a lambda: Vigil's start links none
   * (docs/DESIGN.md#the-start-path).
   */
  private record LoaderFiles(ClassLoader loader) implements Function<String, byte[]> {
    @Override
    public byte[] apply(String name) {
      return classFile(loader, name);
    }
  }

  /** The description of the class named {@code name}, or null when it cannot be read. */
  ClassDescription describe(String name) {
    if (read.containsKey(name)) {
      return read.get(name);
    }
    ClassDescription d;
    try {
      byte[] bytes = classFiles.apply(name);
      d = bytes == null ? null : read(bytes);
    } catch (RuntimeException unreadable) {
      d = null;
    }
    read.put(name, d);
    return d;
  }

  /** The description of the class file {@code bytes}, kept as the class it names. */
  ClassDescription describe(byte[] bytes) {
    ClassDescription d = read(bytes);
    read.put(d.name(), d);
    return d;
  }

  /** The class file of the class named {@code name} as {@code loader} finds it, or null. */
  static byte[] classFile(ClassLoader loader, String name) {
    String resource = name.replace('.', '/') + ".class";
    try (InputStream in =
        loader == null
            ? ClassLoader.getSystemResourceAsStream(resource)
            : loader.getResourceAsStream(resource)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      return null;
    }
  }

  /** Reads one class file; throws on a malformed one. */
  static ClassDescription read(byte[] bytes) {
    Reading reading = new Reading();
    new ClassReader(bytes).accept(reading, ClassReader.SKIP_FRAMES);
    return reading.description();
  }

  private static String name(String internalName) {
    return internalName == null ? null : internalName.replace('/', '.');
  }

  /**
   * Collects an annotation, kept at run time or only in the class file (as Byte Buddy's reading
   * did), and its {@code name} if a string.
   */
  private static AnnotationVisitor annotation(
      String descriptor, List<ClassDescription.Annotation> into) {
    String type = Type.getType(descriptor).getClassName();
    int at = into.size();
    into.add(new ClassDescription.Annotation(type, null));
    return new AnnotationVisitor(Opcodes.ASM9) {
      @Override
      public void visit(String element, Object value) {
        if ("name".equals(element) && value instanceof String s) {
          into.set(at, new ClassDescription.Annotation(type, s));
        }
      }
    };
  }

  /** The class visitor that builds a description. */
  private static final class Reading extends ClassVisitor {
    private String name;
    private int access;
    private String superName;
    private List<String> interfaces = List.of();
    private final List<ClassDescription.Annotation> annotations = new ArrayList<>();
    private final List<ClassDescription.Field> fields = new ArrayList<>();
    private final List<ClassDescription.Method> methods = new ArrayList<>();
    private final List<ClassDescription.Component> components = new ArrayList<>();

    Reading() {
      super(Opcodes.ASM9);
    }

    ClassDescription description() {
      return new ClassDescription(
          name,
          access,
          superName,
          interfaces,
          List.copyOf(annotations),
          List.copyOf(fields),
          List.copyOf(methods),
          List.copyOf(components));
    }

    @Override
    public void visit(
        int version,
        int access,
        String name,
        String signature,
        String superName,
        String[] interfaces) {
      this.name = name(name);
      this.access = access;
      // as for Class.getSuperclass, an interface has none
      this.superName = (access & Opcodes.ACC_INTERFACE) != 0 ? null : name(superName);
      List<String> names = new ArrayList<>();
      for (String i : interfaces == null ? new String[0] : interfaces) {
        names.add(name(i));
      }
      this.interfaces = List.copyOf(names);
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return annotation(descriptor, annotations);
    }

    @Override
    public RecordComponentVisitor visitRecordComponent(
        String name, String descriptor, String signature) {
      List<ClassDescription.Annotation> on = new ArrayList<>();
      int at = components.size();
      components.add(new ClassDescription.Component(name, descriptor, List.of()));
      return new RecordComponentVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
          return annotation(descriptor, on);
        }

        @Override
        public void visitEnd() {
          components.set(at, new ClassDescription.Component(name, descriptor, List.copyOf(on)));
        }
      };
    }

    @Override
    public FieldVisitor visitField(
        int access, String name, String descriptor, String signature, Object value) {
      List<ClassDescription.Annotation> on = new ArrayList<>();
      int at = fields.size();
      fields.add(new ClassDescription.Field(name, List.of()));
      return new FieldVisitor(Opcodes.ASM9) {
        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
          return annotation(descriptor, on);
        }

        @Override
        public void visitEnd() {
          fields.set(at, new ClassDescription.Field(name, List.copyOf(on)));
        }
      };
    }

    @Override
    public MethodVisitor visitMethod(
        int access, String name, String descriptor, String signature, String[] exceptions) {
      return new MethodReading(access, name, descriptor, methods);
    }
  }

  /**
   * Reads a method: its annotations, and its parameters' names from the {@code MethodParameters}
   * attribute, or else from the local variables that begin with the code in the parameters' slots.
   */
  private static final class MethodReading extends MethodVisitor {
    private final int access;
    private final String name;
    private final String descriptor;
    private final List<ClassDescription.Method> into;
    private final List<ClassDescription.Annotation> annotations = new ArrayList<>();
    private final String[] declared;
    private final String[] local;
    private final int[] slots;
    private int nextDeclared;

    /** The first label of the code, where the parameters' local variables begin. */
    private Label codeStart;

    MethodReading(int access, String name, String descriptor, List<ClassDescription.Method> into) {
      super(Opcodes.ASM9);
      this.access = access;
      this.name = name;
      this.descriptor = descriptor;
      this.into = into;
      Type[] arguments = Type.getArgumentTypes(descriptor);
      this.declared = new String[arguments.length];
      this.local = new String[arguments.length];
      this.slots = new int[arguments.length];
      int slot = (access & Opcodes.ACC_STATIC) != 0 ? 0 : 1;
      for (int i = 0; i < arguments.length; i++) {
        slots[i] = slot;
        slot += arguments[i].getSize();
      }
    }

    @Override
    public void visitParameter(String parameter, int parameterAccess) {
      if (nextDeclared < declared.length) {
        declared[nextDeclared++] = parameter;
      }
    }

    @Override
    public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
      return annotation(descriptor, annotations);
    }

    @Override
    public void visitLabel(Label label) {
      if (codeStart == null) {
        codeStart = label;
      }
    }

    @Override
    public void visitLocalVariable(
        String variable, String desc, String signature, Label start, Label end, int index) {
      if (start != codeStart) {
        return;
      }
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] == index) {
          local[i] = variable;
        }
      }
    }

    @Override
    public void visitEnd() {
      String[] names = nextDeclared > 0 ? declared : local;
      into.add(
          new ClassDescription.Method(
              access,
              name,
              descriptor,
              Collections.unmodifiableList(Arrays.asList(names)),
              List.copyOf(annotations)));
    }
  }
}
