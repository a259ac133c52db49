package dev.vigil.observe.bridge;

/**
 * The only Vigil class that instrumented application code calls. It sits on the system class path
 * (the top level of {@code vigil.jar}, which the JVM appends there), so that the classes of every
 * class loader that delegates to the system class loader can link to it, and it forwards to the
 * {@link Recorder} that the agent installed. Neither method ever throws: whatever fails inside
 * Vigil, the application's call goes on as without the agent.
 */
public final class Bridge {
  private static volatile Recorder recorder;

  private Bridge() {}

  /** Installs the recorder that receives every call; null stops recording. */
  public static void install(Recorder r) {
    recorder = r;
  }

  /** Called by the woven code when an instrumented method is entered. */
  public static Object enter(int site, Object self, Object[] args) {
    Recorder r = recorder;
    if (r == null) {
      return null;
    }
    try {
      return r.enter(site, self, args);
    } catch (Throwable t) {
      return null;
    }
  }

  /** Called by the woven code when an instrumented method returns or throws. */
  public static void exit(int site, Object frame, Object result, Throwable thrown) {
    if (frame == null) {
      return;
    }
    Recorder r = recorder;
    if (r == null) {
      return;
    }
    try {
      r.exit(site, frame, result, thrown);
    } catch (Throwable t) {
      // the recorder counts its own losses; nothing may reach the application
    }
  }
}
