package dev.vigil.observe;

/**
 * Thrown when input cannot be read as an {@link Event}; carries the {@link EventDefect} it is
 * counted under.
 */
public final class EventFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final EventDefect defect;

  /** A defect with a message that names the field and what is wrong with it. */
  public EventFormatException(EventDefect defect, String message) {
    super(message);
    this.defect = defect;
  }

  /** A defect with its underlying cause. */
  public EventFormatException(EventDefect defect, String message, Throwable cause) {
    super(message, cause);
    this.defect = defect;
  }

  /** What kind of defect this is. */
  public EventDefect defect() {
    return defect;
  }
}
