package dev.vigil.observe.agent;

import static net.bytebuddy.matcher.ElementMatchers.any;
import static net.bytebuddy.matcher.ElementMatchers.is;
import static net.bytebuddy.matcher.ElementMatchers.isBootstrapClassLoader;
import static net.bytebuddy.matcher.ElementMatchers.isSynthetic;
import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs Vigil's Byte Buddy transformation: retransformation of classes already loaded, no class format changes
 * (so classes loaded before the agent can be instrumented too), JDK internals, Vigil and Byte Buddy ignored, and
 * {@link SiteAdvice} inlined into every method {@link Targets} selects, with the method's {@link Site} id as a
 * constant. A class that cannot be transformed runs unchanged; the first such error prints one line.
 */
final class Instrumenter {
  private final AgentConfig config;
  private final Sites sites;
  private final Targets targets;
  private final TypeDescription adviceWithArgs = TypeDescription.ForLoadedType.of(SiteAdvice.class);
  private final TypeDescription adviceWithoutArgs = TypeDescription.ForLoadedType.of(SiteAdvice.WithoutArgs.class);
  private final ClassFileLocator adviceLocator = ClassFileLocator.ForClassLoader.of(SiteAdvice.class.getClassLoader());

  Instrumenter(AgentConfig config, Sites sites) {
    this.config = config;
    this.sites = sites;
    this.targets = new Targets(config.includes());
  }

  void install(Instrumentation inst) {
    new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
        .disableClassFormatChanges()
        .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
        .with(AgentBuilder.PoolStrategy.Default.EXTENDED)
        .with(new ErrorsOnce())
        .ignore(nameStartsWith("java.")
            .or(nameStartsWith("jdk."))
            .or(nameStartsWith("sun."))
            .or(nameStartsWith("com.sun."))
            .or(nameStartsWith("net.bytebuddy."))
            .or(nameStartsWith("dev.vigil.observe."))
            .or(isSynthetic()))
        .or(any(), isBootstrapClassLoader().or(is(Instrumenter.class.getClassLoader())))
        .type(targets::isCandidate)
        .transform(this::transform)
        .installOn(inst);
  }

  private DynamicType.Builder<?> transform(DynamicType.Builder<?> builder, TypeDescription type,
      ClassLoader loader, JavaModule module, java.security.ProtectionDomain domain) {
    Set<String> supers = Targets.supertypes(type);
    DynamicType.Builder<?> out = builder;
    for (MethodDescription.InDefinedShape method : type.getDeclaredMethods()) {
      Targets.Target target = targets.targetOf(type, supers, method);
      if (target == null) {
        continue;
      }
      Site site = register(type, supers, method, target);
      boolean withArgs = target.role() != Role.TOOL || config.captureArgs();
      Advice advice = Advice.withCustomMapping()
          .bind(SiteId.class, site.id())
          .to(withArgs ? adviceWithArgs : adviceWithoutArgs, adviceLocator);
      out = out.visit(advice.on(is(method)));
    }
    return out;
  }

  private Site register(TypeDescription type, Set<String> supers, MethodDescription method, Targets.Target target) {
    List<String> names = new ArrayList<>();
    for (ParameterDescription p : method.getParameters()) {
      names.add(p.isNamed() ? p.getName() : "arg" + p.getIndex());
    }
    String kind = null;
    if (target.role() == Role.TOOL) {
      kind = config.kinds().kindOf(type.getName(), method.getName());
      for (String s : supers) {
        if (kind != null) {
          break;
        }
        kind = config.kinds().kindOf(s, method.getName());
      }
      if (kind == null) {
        kind = KindOverrides.toolKind(target.toolName());
      }
    }
    return sites.register(target.role(), type.getName(), method.getName(), method.getDescriptor(), names,
        target.toolName(), kind);
  }

  /** Reports the first transformation error in one line; later ones stay quiet. */
  private static final class ErrorsOnce extends AgentBuilder.Listener.Adapter {
    private final AtomicBoolean reported = new AtomicBoolean();

    @Override
    public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
        Throwable throwable) {
      if (reported.compareAndSet(false, true)) {
        Stderr.line("could not instrument " + typeName + " (" + throwable
            + "); it runs without Vigil, and further such errors are not shown");
      }
    }
  }
}
