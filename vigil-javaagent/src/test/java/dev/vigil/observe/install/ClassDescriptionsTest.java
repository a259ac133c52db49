package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.Tool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.RecordComponentDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.pool.TypePool;
import org.junit.jupiter.api.Test;

/**
 * The instrumenter's own reading of class files says what Byte Buddy's type pool (its reading until
 * then) says, over thousands of classes compiled by others: supertypes, methods with their
 * modifiers and parameter names, annotations, record components.
 */
class ClassDescriptionsTest {
  /** Tools as a user writes them. */
  static final class Desk {
    @Tool(name = "find_booking")
    String find(String number, long customer) {
      return number + customer;
    }

    @Tool("Cancels a booking")
    static void cancel(String number) {}

    record Booking(String number, int days) {}
  }

  private final ClassLoader loader = ClassDescriptionsTest.class.getClassLoader();

  @Test
  void readsWhatByteBuddysTypePoolReads() throws Exception {
    TypePool pool =
        new TypePool.Default.WithLazyResolution(
            TypePool.CacheProvider.Simple.withObjectType(),
            ClassFileLocator.ForClassLoader.of(loader),
            TypePool.Default.ReaderMode.EXTENDED);
    int classes = 0;
    int named = 0;
    int records = 0;
    List<FrameworkClassFiles.ClassFile> files = new ArrayList<>(FrameworkClassFiles.all());
    for (Class<?> c : List.of(Desk.class, Desk.Booking.class)) {
      files.add(
          new FrameworkClassFiles.ClassFile(
              c.getName().replace('.', '/'), ClassDescriptions.classFile(loader, c.getName())));
    }
    for (FrameworkClassFiles.ClassFile file : files) {
      ClassDescription ours = ClassDescriptions.read(file.bytes());
      TypeDescription theirs = pool.describe(ours.name()).resolve();
      assertEquals(byteBuddy(theirs), described(ours), ours.name());
      classes++;
      records += ours.isRecord() ? 1 : 0;
      for (ClassDescription.Method m : ours.methods()) {
        named += m.parameterNames().contains(null) || m.parameterNames().isEmpty() ? 0 : 1;
      }
    }
    assertTrue(classes > 4_000, classes + " classes compared");
    assertTrue(named > 10_000, named + " methods with named parameters");
    assertTrue(records > 0, records + " records");
  }

  @Test
  void aToolAnnotationsNameIsReadWhenSet() {
    ClassDescription desk = ClassDescriptions.of(loader).describe(Desk.class.getName());
    ClassDescription.Method find = method(desk, "find");
    assertEquals(List.of("number", "customer"), find.parameterNames());
    assertEquals(
        List.of(new ClassDescription.Annotation(Tool.class.getName(), "find_booking")),
        find.annotations());
    assertEquals(List.of("java.lang.String", "long"), find.parameterTypes());
    assertEquals("java.lang.String", find.returnType());
    ClassDescription.Method cancel = method(desk, "cancel");
    assertNull(cancel.annotations().get(0).nameValue());
    assertEquals("void", cancel.returnType());
  }

  @Test
  void aClassThatCannotBeFoundHasNoDescription() {
    ClassDescriptions classes = ClassDescriptions.of(loader);
    assertNull(classes.describe("no.such.Type"));
    assertNull(classes.describe("[Ljava.lang.String;"));
    assertEquals("java.lang.Object", classes.describe("java.lang.String").superName());
  }

  private static ClassDescription.Method method(ClassDescription type, String name) {
    return type.methods().stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
  }

  private static final int METHOD_FLAGS =
      Opcodes.ACC_ABSTRACT
          | Opcodes.ACC_NATIVE
          | Opcodes.ACC_SYNTHETIC
          | Opcodes.ACC_BRIDGE
          | Opcodes.ACC_PUBLIC
          | Opcodes.ACC_PRIVATE
          | Opcodes.ACC_STATIC;

  /** Byte Buddy's reading, written the way {@link #described} writes ours. */
  private static String byteBuddy(TypeDescription t) {
    StringBuilder out = new StringBuilder();
    out.append(t.getName())
        .append(" synthetic=")
        .append(t.isSynthetic())
        .append(" record=")
        .append(t.isRecord())
        .append(" super=")
        .append(t.getSuperClass() == null ? null : t.getSuperClass().asErasure().getName())
        .append(" interfaces=")
        .append(t.getInterfaces().asErasures().stream().map(TypeDescription::getName).toList())
        .append(" annotations=")
        .append(annotationTypes(t.getDeclaredAnnotations()))
        .append('\n');
    for (FieldDescription.InDefinedShape f : t.getDeclaredFields()) {
      out.append("field ")
          .append(f.getName())
          .append(' ')
          .append(annotationTypes(f.getDeclaredAnnotations()))
          .append('\n');
    }
    List<MethodDescription.InDefinedShape> methods = new ArrayList<>(t.getDeclaredMethods());
    methods.sort(Comparator.comparing(m -> m.getInternalName() + m.getDescriptor()));
    for (MethodDescription.InDefinedShape m : methods) {
      if (!m.isMethod()) {
        continue;
      }
      List<String> names = new ArrayList<>();
      for (ParameterDescription p : m.getParameters()) {
        names.add(p.isNamed() ? p.getName() : null);
      }
      out.append("method ")
          .append(m.getInternalName())
          .append(m.getDescriptor())
          .append(' ')
          .append(m.getModifiers() & METHOD_FLAGS)
          .append(' ')
          .append(names)
          .append(' ')
          .append(annotationTypes(m.getDeclaredAnnotations()))
          .append('\n');
    }
    for (RecordComponentDescription.InDefinedShape c : t.getRecordComponents()) {
      out.append("component ")
          .append(c.getActualName())
          .append(' ')
          .append(c.getType().asErasure().getDescriptor())
          .append(' ')
          .append(annotationTypes(c.getDeclaredAnnotations()))
          .append('\n');
    }
    return out.toString();
  }

  private static List<String> annotationTypes(List<? extends AnnotationDescription> annotations) {
    return annotations.stream().map(a -> a.getAnnotationType().getName()).toList();
  }

  /** Our reading, written the way {@link #byteBuddy} writes Byte Buddy's. */
  private String described(ClassDescription d) {
    StringBuilder out = new StringBuilder();
    out.append(d.name())
        .append(" synthetic=")
        .append(d.is(Opcodes.ACC_SYNTHETIC))
        .append(" record=")
        .append(d.isRecord())
        .append(" super=")
        .append(d.superName())
        .append(" interfaces=")
        .append(d.interfaces())
        .append(" annotations=")
        .append(types(d.annotations()))
        .append('\n');
    for (ClassDescription.Field f : d.fields()) {
      out.append("field ").append(f.name()).append(' ').append(types(f.annotations())).append('\n');
    }
    List<ClassDescription.Method> methods = new ArrayList<>(d.methods());
    methods.sort(Comparator.comparing(m -> m.name() + m.descriptor()));
    for (ClassDescription.Method m : methods) {
      if (!m.isMethod()) {
        continue;
      }
      out.append("method ")
          .append(m.name())
          .append(m.descriptor())
          .append(' ')
          .append(m.access() & METHOD_FLAGS)
          .append(' ')
          .append(m.parameterNames())
          .append(' ')
          .append(types(m.annotations()))
          .append('\n');
    }
    for (ClassDescription.Component c : d.components()) {
      out.append("component ")
          .append(c.name())
          .append(' ')
          .append(c.descriptor())
          .append(' ')
          .append(types(c.annotations()))
          .append('\n');
    }
    return out.toString();
  }

  /**
   * The annotations' types, less those whose class file is nowhere: Byte Buddy leaves those out,
   * where the instrumenter keeps them (they name neither a tool nor Jackson).
   */
  private List<String> types(List<ClassDescription.Annotation> annotations) {
    return annotations.stream()
        .map(ClassDescription.Annotation::type)
        .filter(type -> ClassDescriptions.classFile(loader, type) != null)
        .toList();
  }
}
