package dev.vigil.cli;

/**
 * A fatal problem with what the user gave a command (a missing path, an unreadable file): exit code
 * 2.
 */
final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The message names the input and what is wrong with it. */
  public BadInputException(String message) {
    super(message);
  }

  /** With the underlying cause. */
  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
