package dev.vigil.observe.install;

import dev.vigil.observe.agent.MethodInclude;
import dev.vigil.observe.capture.Role;
import java.lang.reflect.Method;
import java.util.ArrayDeque;
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
 * Which methods Vigil instruments and what each one is (SPEC section 3): methods annotated with LangChain4j's or
 * Spring AI's {@code @Tool}, the frameworks' entry points that carry the tool-call id, the calls that answer one
 * user message (turns), and the methods named by {@code vigil.methods.include} (subtypes match).
 */
final class Targets {
  static final String LANGCHAIN4J_TOOL = "dev.langchain4j.agent.tool.Tool";
  static final String SPRING_AI_TOOL = "org.springframework.ai.tool.annotation.Tool";
  static final String LANGCHAIN4J_EXECUTOR = "dev.langchain4j.service.tool.ToolExecutor";
  static final String LANGCHAIN4J_REQUEST = "dev.langchain4j.agent.tool.ToolExecutionRequest";
  static final String SPRING_AI_CALLBACK = "org.springframework.ai.tool.ToolCallback";
  static final String SPRING_AI_CALL_SPEC = "org.springframework.ai.chat.client.ChatClient$CallResponseSpec";
  static final String SPRING_AI_MANAGER = "org.springframework.ai.model.tool.DefaultToolCallingManager";
  static final String INVOCATION_HANDLER = "java.lang.reflect.InvocationHandler";
  private static final Set<String> FRAMEWORK_TYPES = Set.of(LANGCHAIN4J_EXECUTOR, SPRING_AI_CALLBACK,
      SPRING_AI_CALL_SPEC);
  private static final Set<String> CALL_SPEC_METHODS = Set.of("content", "chatResponse", "chatClientResponse",
      "entity", "responseEntity");

  /** A method's role and, for tools, its tool name. */
  record Target(Role role, String toolName) {}

  private final List<MethodInclude> includes;
  private final Set<String> includedTypes = new HashSet<>();

  Targets(List<MethodInclude> includes) {
    this.includes = includes;
    for (MethodInclude i : includes) {
      includedTypes.add(i.className());
    }
  }

  /** Whether a type may have methods to instrument; cheap checks first, the type hierarchy only when needed. */
  boolean isCandidate(TypeDescription type) {
    try {
      if (declaresToolMethod(type)) {
        return true;
      }
      String name = type.getName();
      if (name.startsWith("dev.langchain4j.") || name.startsWith("org.springframework.ai.")) {
        Set<String> supers = supertypes(type);
        return supers.contains(LANGCHAIN4J_EXECUTOR) || supers.contains(SPRING_AI_CALLBACK)
            || supers.contains(SPRING_AI_CALL_SPEC) || name.equals(SPRING_AI_MANAGER)
            || (name.startsWith("dev.langchain4j.service.") && supers.contains(INVOCATION_HANDLER));
      }
      if (directlyExtendsAny(type, FRAMEWORK_TYPES)) {
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
    if (method.isAbstract() || method.isNative() || !method.isMethod() || method.isSynthetic() || method.isBridge()) {
      return null;
    }
    String name = method.getName();
    List<? extends ParameterDescription> params = method.getParameters();
    if (supers.contains(LANGCHAIN4J_EXECUTOR) && (name.equals("execute") || name.equals("executeWithContext"))
        && params.size() == 2 && params.get(0).getType().asErasure().getName().equals(LANGCHAIN4J_REQUEST)) {
      return new Target(Role.LANGCHAIN4J_EXECUTOR, null);
    }
    if (supers.contains(SPRING_AI_CALLBACK) && name.equals("call") && !params.isEmpty() && params.size() <= 2
        && params.get(0).getType().asErasure().represents(String.class)) {
      return new Target(Role.SPRING_AI_CALLBACK, null);
    }
    if (type.getName().startsWith("dev.langchain4j.service.") && supers.contains(INVOCATION_HANDLER)
        && name.equals("invoke") && params.size() == 3) {
      // invoke(proxy, Method, Object[]) is the proxy's entry; invoke(Method, Object[], InvocationContext) follows
      // once LangChain4j has given the call its invocation id and memory id
      boolean withContext = params.get(0).getType().asErasure().represents(Method.class);
      return new Target(withContext ? Role.LANGCHAIN4J_INVOCATION : Role.LANGCHAIN4J_TURN, null);
    }
    if (supers.contains(SPRING_AI_CALL_SPEC) && method.isPublic() && CALL_SPEC_METHODS.contains(name)) {
      return new Target(Role.SPRING_AI_TURN, null);
    }
    if (type.getName().equals(SPRING_AI_MANAGER) && name.equals("executeToolCall")) {
      return new Target(Role.SPRING_AI_TOOL_CALLS, null);
    }
    String toolName = toolAnnotationName(method);
    if (toolName != null) {
      return new Target(Role.TOOL, toolName.isEmpty() ? name : toolName);
    }
    for (MethodInclude include : includes) {
      if (supers.contains(include.className())
          && (include.allMethods() ? !method.isPrivate() : include.methods().contains(name))) {
        return new Target(Role.TOOL, name);
      }
    }
    return null;
  }

  /** The {@code name} of a {@code @Tool} annotation on the method ("" when unset), or null when there is none. */
  static String toolAnnotationName(MethodDescription method) {
    for (AnnotationDescription a : method.getDeclaredAnnotations()) {
      String type = a.getAnnotationType().getName();
      if (type.equals(LANGCHAIN4J_TOOL) || type.equals(SPRING_AI_TOOL)) {
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

  private static boolean declaresToolMethod(TypeDescription type) {
    for (MethodDescription m : type.getDeclaredMethods()) {
      for (AnnotationDescription a : m.getDeclaredAnnotations()) {
        String name = a.getAnnotationType().getName();
        if (name.equals(LANGCHAIN4J_TOOL) || name.equals(SPRING_AI_TOOL)) {
          return true;
        }
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
