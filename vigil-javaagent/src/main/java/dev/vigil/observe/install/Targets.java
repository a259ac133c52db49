package dev.vigil.observe.install;

import dev.vigil.observe.agent.MethodInclude;
import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.MethodRule;
import dev.vigil.observe.capture.Role;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Which methods Vigil instruments and what each one is: methods annotated as tools by a {@link
 * Framework}, the frameworks' own methods their {@link MethodRule}s name (tool calls that carry an
 * id, calls that answer one user message), and the methods named by {@code vigil.methods.include}
 * (subtypes match).
 */
final class Targets {
  /**
   * A method's role, the framework it belongs to (null for a tool method), and, for tools, the tool
   * name.
   */
  record Target(Role role, Framework framework, String toolName) {}

  private final List<MethodInclude> includes;
  private final Set<String> includedTypes = new HashSet<>();
  private final List<Framework> frameworks;
  private final Set<String> toolAnnotations = new HashSet<>();
  private final Set<String> entryPoints = new HashSet<>();
  private final List<String> frameworkPackages = new ArrayList<>();

  Targets(List<MethodInclude> includes, List<Framework> frameworks) {
    this.includes = includes;
    this.frameworks = List.copyOf(frameworks);
    for (MethodInclude i : includes) {
      includedTypes.add(i.className());
    }
    for (Framework f : frameworks) {
      toolAnnotations.addAll(f.toolAnnotations());
      frameworkPackages.addAll(f.packages());
      for (MethodRule r : f.methods()) {
        if (r.isEntryPoint()) {
          entryPoints.add(r.type());
        }
      }
    }
  }

  /**
   * Whether a type may have methods to instrument; cheap checks first, the type hierarchy only when
   * needed.
   */
  boolean isCandidate(ClassDescription type, ClassDescriptions classes) {
    try {
      if (declaresToolMethod(type)) {
        return true;
      }
      String name = type.name();
      if (startsWithAny(name, frameworkPackages)) {
        Set<String> supers = supertypes(type, classes);
        for (Framework f : frameworks) {
          for (MethodRule r : f.methods()) {
            if (r.matchesType(name, supers)) {
              return true;
            }
          }
        }
        return false;
      }
      if (directlyExtendsAny(type, entryPoints)) {
        return true;
      }
      if (!includedTypes.isEmpty()) {
        Set<String> supers = supertypes(type, classes);
        for (String included : includedTypes) {
          if (supers.contains(included)) {
            return true;
          }
        }
      }
    } catch (RuntimeException unresolvable) {
      return false;
    }
    return false;
  }

  /** What {@code method} of {@code type} is to Vigil, or null when it is not instrumented. */
  Target targetOf(ClassDescription type, Set<String> supers, ClassDescription.Method method) {
    if (method.is(Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_SYNTHETIC)
        || method.is(Opcodes.ACC_BRIDGE)
        || !method.isMethod()) {
      return null;
    }
    String name = method.name();
    List<String> params = method.parameterTypes();
    String first = params.isEmpty() ? null : params.get(0);
    for (Framework f : frameworks) {
      for (MethodRule r : f.methods()) {
        if (r.matchesType(type.name(), supers)
            && r.matchesMethod(name, params.size(), first, method.is(Opcodes.ACC_PUBLIC))) {
          return new Target(r.role(), f, null);
        }
      }
    }
    String toolName = toolAnnotationName(method);
    if (toolName != null) {
      return new Target(Role.TOOL, null, toolName.isEmpty() ? name : toolName);
    }
    for (MethodInclude include : includes) {
      if (supers.contains(include.className())
          && (include.allMethods()
              ? !method.is(Opcodes.ACC_PRIVATE)
              : include.methods().contains(name))) {
        return new Target(Role.TOOL, null, name);
      }
    }
    return null;
  }

  /**
   * The {@code name} of a tool annotation on the method ("" when unset), or null when there is
   * none.
   */
  String toolAnnotationName(ClassDescription.Method method) {
    for (ClassDescription.Annotation a : method.annotations()) {
      if (toolAnnotations.contains(a.type())) {
        return a.nameValue() == null ? "" : a.nameValue().trim();
      }
    }
    return null;
  }

  private boolean declaresToolMethod(ClassDescription type) {
    for (ClassDescription.Method m : type.methods()) {
      for (ClassDescription.Annotation a : m.annotations()) {
        if (toolAnnotations.contains(a.type())) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean startsWithAny(String name, List<String> prefixes) {
    for (String p : prefixes) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  private static boolean directlyExtendsAny(ClassDescription type, Set<String> names) {
    if (type.superName() != null && names.contains(type.superName())) {
      return true;
    }
    for (String i : type.interfaces()) {
      if (names.contains(i)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The names of the type and all its supertypes; a supertype whose class file cannot be read is
   * named, and the hierarchy above it is unknown.
   */
  static Set<String> supertypes(ClassDescription type, ClassDescriptions classes) {
    Set<String> out = new HashSet<>();
    out.add(type.name());
    Deque<ClassDescription> unvisited = new ArrayDeque<>();
    unvisited.add(type);
    while (!unvisited.isEmpty()) {
      ClassDescription t = unvisited.poll();
      List<String> above = new ArrayList<>(t.interfaces());
      if (t.superName() != null) {
        above.add(0, t.superName());
      }
      for (String name : above) {
        // java.lang.Object has no supertype: its class file is not read
        if (out.add(name) && !name.equals("java.lang.Object")) {
          ClassDescription d = classes.describe(name);
          if (d != null) {
            unvisited.add(d);
          }
        }
      }
    }
    return out;
  }
}
