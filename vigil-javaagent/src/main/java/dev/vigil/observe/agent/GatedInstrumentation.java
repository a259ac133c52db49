package dev.vigil.observe.agent;

import java.lang.instrument.ClassDefinition;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The JVM's {@link Instrumentation} as Byte Buddy sees it while Vigil installs: a transformer Byte Buddy registers
 * does not join the JVM's list but goes behind the {@link StartupGate} that {@code premain} registered, which then
 * opens. Everything else, retransformation included, goes to the JVM as it is; a retransformed class reaches Byte
 * Buddy's transformer through the gate.
 */
final class GatedInstrumentation implements Instrumentation {
  private final Instrumentation jvm;
  private final StartupGate gate;
  private ClassFileTransformer registered;

  GatedInstrumentation(Instrumentation jvm, StartupGate gate) {
    this.jvm = jvm;
    this.gate = gate;
  }

  @Override
  public synchronized void addTransformer(ClassFileTransformer transformer, boolean canRetransform) {
    if (registered != null) {
      jvm.addTransformer(transformer, canRetransform);
      return;
    }
    registered = transformer;
    gate.open(transformer);
  }

  @Override
  public void addTransformer(ClassFileTransformer transformer) {
    addTransformer(transformer, false);
  }

  @Override
  public synchronized boolean removeTransformer(ClassFileTransformer transformer) {
    if (transformer != null && transformer == registered) {
      gate.open(null);
      return true;
    }
    return jvm.removeTransformer(transformer);
  }

  @Override
  public boolean isRetransformClassesSupported() {
    return jvm.isRetransformClassesSupported();
  }

  @Override
  public void retransformClasses(Class<?>... classes) throws UnmodifiableClassException {
    jvm.retransformClasses(classes);
  }

  @Override
  public boolean isRedefineClassesSupported() {
    return jvm.isRedefineClassesSupported();
  }

  @Override
  public void redefineClasses(ClassDefinition... definitions)
      throws ClassNotFoundException, UnmodifiableClassException {
    jvm.redefineClasses(definitions);
  }

  @Override
  public boolean isModifiableClass(Class<?> theClass) {
    return jvm.isModifiableClass(theClass);
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getAllLoadedClasses() {
    return jvm.getAllLoadedClasses();
  }

  @Override
  @SuppressWarnings("rawtypes")
  public Class[] getInitiatedClasses(ClassLoader loader) {
    return jvm.getInitiatedClasses(loader);
  }

  @Override
  public long getObjectSize(Object objectToSize) {
    return jvm.getObjectSize(objectToSize);
  }

  @Override
  public void appendToBootstrapClassLoaderSearch(JarFile jarfile) {
    jvm.appendToBootstrapClassLoaderSearch(jarfile);
  }

  @Override
  public void appendToSystemClassLoaderSearch(JarFile jarfile) {
    jvm.appendToSystemClassLoaderSearch(jarfile);
  }

  @Override
  public boolean isNativeMethodPrefixSupported() {
    return jvm.isNativeMethodPrefixSupported();
  }

  @Override
  public void setNativeMethodPrefix(ClassFileTransformer transformer, String prefix) {
    jvm.setNativeMethodPrefix(transformer, prefix);
  }

  @Override
  public void redefineModule(Module module, Set<Module> extraReads, Map<String, Set<Module>> extraExports,
      Map<String, Set<Module>> extraOpens, Set<Class<?>> extraUses, Map<Class<?>, List<Class<?>>> extraProvides) {
    jvm.redefineModule(module, extraReads, extraExports, extraOpens, extraUses, extraProvides);
  }

  @Override
  public boolean isModifiableModule(Module module) {
    return jvm.isModifiableModule(module);
  }
}
