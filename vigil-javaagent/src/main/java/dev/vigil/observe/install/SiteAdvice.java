package dev.vigil.observe.install;

import dev.vigil.observe.bridge.Bridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * The code Byte Buddy inlines into every instrumented method: one call to {@link Bridge} on entry,
 * with the receiver and the arguments, and one on exit, with the result or what was thrown. Any
 * throwable inside is suppressed, so the method behaves exactly as without the agent.
 */
public final class SiteAdvice {
  private SiteAdvice() {}

  /** On entry: the frame handed back on exit. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(
      @SiteId int site,
      @Advice.This(optional = true) Object self,
      @Advice.AllArguments Object[] args) {
    return Bridge.enter(site, self, args);
  }

  /** On exit, normal or by a throwable. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(
      @SiteId int site,
      @Advice.Enter Object frame,
      @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object result,
      @Advice.Thrown Throwable thrown) {
    Bridge.exit(site, frame, result, thrown);
  }

  /**
   * The same advice for tool methods when {@code vigil.capture.args=false}: no argument array is
   * built.
   */
  public static final class WithoutArgs {
    private WithoutArgs() {}

    /** On entry. */
    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@SiteId int site, @Advice.This(optional = true) Object self) {
      return Bridge.enter(site, self, null);
    }

    /** On exit. */
    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(
        @SiteId int site,
        @Advice.Enter Object frame,
        @Advice.Return(typing = Assigner.Typing.DYNAMIC) Object result,
        @Advice.Thrown Throwable thrown) {
      Bridge.exit(site, frame, result, thrown);
    }
  }
}
