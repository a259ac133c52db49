package dev.vigil.orchestrate;

/**
 * What walks a pass's stages: the deterministic walk ({@link #DETERMINISTIC}) or an LLM through its
 * tools. Whatever a driver leaves undone, {@link ReflectivePass} finishes deterministically.
 */
@FunctionalInterface
public interface PassDriver {
  /** Walks the stages in order itself. */
  PassDriver DETERMINISTIC = PassSession::finish;

  /** Drives the session's steps. */
  void drive(PassSession session);
}
