package dev.vigil.observe.capture;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;

/**
 * The text of the answer a turn returned. A string is the answer; the frameworks' own results are
 * unwrapped to their text (LangChain4j's {@code Result}, {@code AiMessage} and {@code
 * ChatResponse}; Spring AI's {@code ChatResponse}, {@code ChatClientResponse}, {@code Generation},
 * {@code AssistantMessage} and {@code ResponseEntity}); an object of the application (structured
 * output) is a snapshot of its fields. A result that only promises the answer (a LangChain4j {@code
 * TokenStream}, a reactive stream, a future) is {@link #PENDING}: the answer is not known when the
 * call returns.
 */
final class Answers {
  /** The answer of a streaming or asynchronous call, not known when the call returns. */
  static final Object PENDING = new Object();

  /** The accessors that lead from a framework's result towards its text, tried in this order. */
  private static final String[] UNWRAP = {
    "content",
    "aiMessage",
    "chatResponse",
    "getResponse",
    "getResult",
    "getOutput",
    "text",
    "getText"
  };

  private static final int MAX_STEPS = 4;

  /** Interfaces of results that deliver the answer later, besides the frameworks' own. */
  private static final String REACTIVE_STREAMS = "org.reactivestreams.Publisher";

  private final FrameworkAccess access;
  private final ValueCapture capture;
  private final List<String> frameworkPackages = new ArrayList<>();
  private final Set<String> promises = new HashSet<>();

  Answers(FrameworkAccess access, ValueCapture capture, List<Framework> frameworks) {
    this.access = access;
    this.capture = capture;
    promises.add(REACTIVE_STREAMS);
    for (Framework f : frameworks) {
      frameworkPackages.addAll(f.packages());
      promises.addAll(f.promises());
    }
  }

  /** The answer's text or snapshot, null when there is none, or {@link #PENDING}. */
  Object text(Object result, Site site) {
    Object v = result;
    for (int step = 0; step < MAX_STEPS && v != null; step++) {
      if (v instanceof CharSequence s) {
        return s.toString();
      }
      if (isPromise(v)) {
        return PENDING;
      }
      if (!isFramework(v.getClass())) {
        return capture.capture(v, site, -1);
      }
      Object next = null;
      for (int i = 0; i < UNWRAP.length && next == null; i++) {
        next = access.call(v, UNWRAP[i]);
      }
      v = next;
    }
    return v instanceof CharSequence s ? s.toString() : null;
  }

  private boolean isFramework(Class<?> type) {
    String name = type.getName();
    for (String p : frameworkPackages) {
      if (name.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  private boolean isPromise(Object v) {
    if (v instanceof Future<?>
        || v instanceof CompletionStage<?>
        || v instanceof Flow.Publisher<?>) {
      return true;
    }
    for (Class<?> c = v.getClass(); c != null; c = c.getSuperclass()) {
      if (c.getName().startsWith("reactor.core.publisher.")
          || c.getName().startsWith("io.reactivex.")
          || implementsPromise(c)) {
        return true;
      }
    }
    return false;
  }

  private boolean implementsPromise(Class<?> type) {
    for (Class<?> i : type.getInterfaces()) {
      if (promises.contains(i.getName()) || implementsPromise(i)) {
        return true;
      }
    }
    return false;
  }
}
