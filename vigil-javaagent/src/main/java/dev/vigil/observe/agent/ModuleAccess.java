package dev.vigil.observe.agent;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gives Vigil's own class loader the module access Chronicle Queue needs on Java 17+ (the {@code
 * --add-exports}/{@code --add-opens} its documentation lists), through {@link
 * Instrumentation#redefineModule}, so that the user never adds a JVM flag. Only Vigil's unnamed
 * module gains access; the application's modules are untouched. As a {@link Runnable}, the writer
 * runs it before it first opens the queue.
 *
 * @param inst the JVM's instrumentation
 * @param vigil the module of Vigil's class loader
 */
record ModuleAccess(Instrumentation inst, Module vigil) implements Runnable {
  @Override
  public void run() {
    grant(inst, vigil);
  }

  static void grant(Instrumentation inst, Module vigil) {
    Set<Module> to = Set.of(vigil);
    Module base = Object.class.getModule();
    inst.redefineModule(
        base,
        Set.of(),
        Map.of("jdk.internal.ref", to, "sun.nio.ch", to, "jdk.internal.misc", to),
        Map.of(
            "java.lang",
            to,
            "java.lang.reflect",
            to,
            "java.io",
            to,
            "java.util",
            to,
            "java.nio",
            to),
        Set.of(),
        Map.of());
    Optional<Module> unsupported = ModuleLayer.boot().findModule("jdk.unsupported");
    unsupported.ifPresent(
        m ->
            inst.redefineModule(m, Set.of(), Map.of(), Map.of("sun.misc", to), Set.of(), Map.of()));
    Optional<Module> compiler = ModuleLayer.boot().findModule("jdk.compiler");
    compiler.ifPresent(
        m ->
            inst.redefineModule(
                m,
                Set.of(),
                Map.of("com.sun.tools.javac.file", to),
                Map.of("com.sun.tools.javac", to),
                Set.of(),
                Map.of()));
  }
}
