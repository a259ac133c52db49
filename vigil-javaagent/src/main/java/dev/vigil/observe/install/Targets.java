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
import net.bytebuddy.description.annotation.AnnotationDescription;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;

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
  boolean isCandidate(TypeDescription type) {
    try {
      if (declaresToolMethod(type)) {
        return true;
      }
      String name = type.getName();
      if (startsWithAny(name, frameworkPackages)) {
        Set<String> supers = supertypes(type);
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
        Set<String> supers = supertypes(type);
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
  Target targetOf(TypeDescription type, Set<String> supers, MethodDescription method) {
    if (method.isAbstract()
        || method.isNative()
        || !method.isMethod()
        || method.isSynthetic()
        || method.isBridge()) {
      return null;
    }
    String name = method.getName();
    List<? extends ParameterDescription> params = method.getParameters();
    String first = params.isEmpty() ? null : params.get(0).getType().asErasure().getName();
    for (Framework f : frameworks) {
      for (MethodRule r : f.methods()) {
        if (r.matchesType(type.getName(), supers)
            && r.matchesMethod(name, params.size(), first, method.isPublic())) {
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
          && (include.allMethods() ? !method.isPrivate() : include.methods().contains(name))) {
        return new Target(Role.TOOL, null, name);
      }
    }
    return null;
  }

  /**
   * The {@code name} of a tool annotation on the method ("" when unset), or null when there is
   * none.
   */
  String toolAnnotationName(MethodDescription method) {
    for (AnnotationDescription a : method.getDeclaredAnnotations()) {
      if (toolAnnotations.contains(a.getAnnotationType().getName())) {
        try {
          Object value = a.getValue("name").resolve();
          return value instanceof String s ? s.trim() : "";
        } catch (RuntimeException unreadable) {
          return "";
        }
      }
    }
    return null;
  }

  private boolean declaresToolMethod(TypeDescription type) {
    for (MethodDescription m : type.getDeclaredMethods()) {
      for (AnnotationDescription a : m.getDeclaredAnnotations()) {
        if (toolAnnotations.contains(a.getAnnotationType().getName())) {
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

  private static boolean directlyExtendsAny(TypeDescription type, Set<String> names) {
    TypeDescription.Generic superClass = type.getSuperClass();
    if (superClass != null && names.contains(superClass.asErasure().getName())) {
      return true;
    }
    for (TypeDescription.Generic i : type.getInterfaces()) {
      if (names.contains(i.asErasure().getName())) {
        return true;
      }
    }
    return false;
  }

  /** The names of the type and all its supertypes that can be resolved. */
  static Set<String> supertypes(TypeDescription type) {
    Set<String> out = new HashSet<>();
    Deque<TypeDefinition> unvisited = new ArrayDeque<>();
    unvisited.add(type);
    while (!unvisited.isEmpty()) {
      TypeDefinition t = unvisited.poll();
      String name;
      try {
        name = t.asErasure().getName();
      } catch (RuntimeException e) {
        continue;
      }
      if (!out.add(name)) {
        continue;
      }
      try {
        TypeDescription.Generic s = t.getSuperClass();
        if (s != null) {
          unvisited.add(s);
        }
        unvisited.addAll(t.getInterfaces());
      } catch (RuntimeException unresolvable) {
        // a supertype that cannot be read: the hierarchy above it is unknown
      }
    }
    return out;
  }
}
