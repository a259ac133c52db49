package dev.vigil.observe.bridge;

/**
 * What the calls woven into every instrumented method hand over to. Implemented inside Vigil's own
 * class loader; the interface lives beside {@link Bridge} on the system class path so that every
 * application class can see it.
 */
public interface Recorder {
  /**
   * A call begins.
   *
   * @param site the id the instrumentation gave the method
   * @param self the receiver, or null for a static method
   * @param args the arguments as passed, or null when arguments are not captured
   * @return the call's frame, handed back to {@link #exit}; null when nothing is to be recorded
   */
  Object enter(int site, Object self, Object[] args);

  /** The call with {@code frame} returned {@code result} or threw {@code thrown}. */
  void exit(int site, Object frame, Object result, Throwable thrown);
}
