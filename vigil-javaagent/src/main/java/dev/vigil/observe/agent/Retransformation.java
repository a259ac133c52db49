package dev.vigil.observe.agent;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.security.ProtectionDomain;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The transformer that instruments the classes loaded before the {@link StartupGate} opened, by retransformation.
 * The gate is registered without the capability to retransform: an agent that registers a retransformation-capable
 * transformer makes the JVM start an application measurably slower (about 2 % of a Spring Boot application's start,
 * each class it loads taking the longer path), and a gate registered in {@code premain} sees every class of the
 * application load, so there is usually nothing to retransform. When there is (classes another agent loaded first,
 * or all of them when Vigil is attached to a running JVM), this transformer is registered with that capability and
 * hands the {@link Instrumenter} the retransformations of those classes only, every time (another agent's
 * retransformation starts again from their original class files). A class the gate instrumented as it loaded keeps
 * that instrumentation through any retransformation, as the JVM reuses what a transformer without the capability made.
 */
final class Retransformation implements ClassFileTransformer {
  private final ClassFileTransformer instrumenter;
  /** Weakly held: a class loader may go away. */
  private final Set<Class<?>> classes = Collections.newSetFromMap(new WeakHashMap<>());

  /** Instruments the retransformations of {@code classes} with {@code instrumenter}. */
  Retransformation(ClassFileTransformer instrumenter, Collection<Class<?>> classes) {
    this.instrumenter = instrumenter;
    this.classes.addAll(classes);
  }

  @Override
  public byte[] transform(Module module, ClassLoader loader, String className, Class<?> redefined,
      ProtectionDomain domain, byte[] bytes) throws IllegalClassFormatException {
    if (redefined == null) {
      return null; // a class loading: the gate's
    }
    synchronized (classes) {
      if (!classes.contains(redefined)) {
        return null;
      }
    }
    return instrumenter.transform(module, loader, className, redefined, domain, bytes);
  }
}
