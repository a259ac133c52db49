package dev.vigil.observe.langchain4j;

import dev.vigil.observe.capture.FrameworkAccess;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.ValueCapture;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;

/**
 * Reads a turn of a LangChain4j AI service from the call of its proxy: the user message as the
 * application passed it (before retrieval augmentation) and the memory id that names the
 * conversation. It follows LangChain4j's own rules for AI-service methods: a method-level
 * {@code @UserMessage} template, filled with the {@code @V} arguments (or the only argument as
 * {@code {{it}}}); else the argument annotated {@code @UserMessage}; else the only argument. The
 * memory id is the {@code @MemoryId} argument, else LangChain4j's default, {@code "default"}.
 * Annotations are matched by name, since Vigil is compiled against no LangChain4j version; nothing
 * here throws.
 */
final class LangChain4jConversation {
  static final String USER_MESSAGE = "dev.langchain4j.service.UserMessage";
  static final String MEMORY_ID = "dev.langchain4j.service.MemoryId";
  static final String V = "dev.langchain4j.service.V";
  static final String MEMORY_ACCESS = "dev.langchain4j.service.memory.ChatMemoryAccess";

  /** LangChain4j's memory id when the method has no {@code @MemoryId} parameter. */
  static final String DEFAULT_MEMORY_ID = "default";

  private final FrameworkAccess access;

  LangChain4jConversation(FrameworkAccess access) {
    this.access = access;
  }

  /**
   * Whether a call of the proxy is a turn: not {@code toString}/{@code equals}/{@code hashCode},
   * not a default method (its own calls of the proxy are the turns), not the chat-memory accessors.
   */
  static boolean isChat(Method method) {
    Class<?> owner = method.getDeclaringClass();
    return owner != Object.class && !method.isDefault() && !owner.getName().equals(MEMORY_ACCESS);
  }

  /** The {@code @MemoryId} argument as text, else {@value #DEFAULT_MEMORY_ID}. */
  static String memoryId(Method method, Object[] args) {
    Annotation[][] annotations = method.getParameterAnnotations();
    for (int i = 0; i < annotations.length && args != null && i < args.length; i++) {
      if (find(annotations[i], MEMORY_ID) != null) {
        return args[i] == null ? DEFAULT_MEMORY_ID : FrameworkAccess.textOf(args[i]);
      }
    }
    return DEFAULT_MEMORY_ID;
  }

  /**
   * The memory id LangChain4j resolved, from its {@code InvocationContext}; null when unreadable.
   */
  String memoryId(Object invocationContext) {
    Object id = access.call(invocationContext, "chatMemoryId");
    return id == null ? null : FrameworkAccess.textOf(id);
  }

  /**
   * The invocation id LangChain4j gave the call, from its {@code InvocationContext}; null when
   * unreadable.
   */
  String invocationId(Object invocationContext) {
    return access.text(invocationContext, "invocationId");
  }

  /**
   * The user message of a call: text, a snapshot taken by {@code capture}, or null when the method
   * has none.
   */
  Object userText(Method method, Object[] args, Site site, ValueCapture capture) {
    Object[] values = args == null ? new Object[0] : args;
    Annotation[][] annotations = method.getParameterAnnotations();
    Annotation template = find(method.getDeclaredAnnotations(), USER_MESSAGE);
    if (template != null) {
      return fill(template, method, annotations, values);
    }
    for (int i = 0; i < annotations.length && i < values.length; i++) {
      if (find(annotations[i], USER_MESSAGE) != null) {
        return text(values[i], site, i, capture);
      }
    }
    if (values.length == 1 && annotations.length == 1 && annotations[0].length == 0) {
      return text(values[0], site, 0, capture);
    }
    return null;
  }

  /** A method-level template with its variables filled in; null when it comes from a resource. */
  private static String fill(
      Annotation template, Method method, Annotation[][] annotations, Object[] values) {
    Object lines = attribute(template, "value");
    Object delimiter = attribute(template, "delimiter");
    if (!(lines instanceof String[] parts)
        || parts.length == 0
        || (parts.length == 1 && parts[0].isEmpty())) {
      return null;
    }
    String text = String.join(delimiter instanceof String d ? d : "\n", parts);
    Parameter[] params = method.getParameters();
    for (int i = 0; i < values.length && i < params.length; i++) {
      Annotation v = find(annotations[i], V);
      Object name =
          v != null
              ? attribute(v, "value")
              : params[i].isNamePresent() ? params[i].getName() : null;
      String value = values[i] == null ? "null" : FrameworkAccess.textOf(values[i]);
      if (name instanceof String n) {
        text = text.replace("{{" + n + "}}", value);
      }
      if (values.length == 1) {
        text = text.replace("{{it}}", value);
      }
    }
    return text;
  }

  /**
   * The text of an argument: a string as it is, LangChain4j's own message by its text, else a
   * snapshot.
   */
  private Object text(Object value, Site site, int index, ValueCapture capture) {
    if (value instanceof CharSequence s) {
      return s.toString();
    }
    if (value != null && value.getClass().getName().startsWith("dev.langchain4j.")) {
      Object single = access.call(value, "singleText");
      return single != null ? single : access.text(value, "text");
    }
    return capture.capture(value, site, index);
  }

  private static Annotation find(Annotation[] annotations, String type) {
    for (Annotation a : annotations) {
      if (a.annotationType().getName().equals(type)) {
        return a;
      }
    }
    return null;
  }

  private static Object attribute(Annotation a, String name) {
    try {
      return a.annotationType().getMethod(name).invoke(a);
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }
}
