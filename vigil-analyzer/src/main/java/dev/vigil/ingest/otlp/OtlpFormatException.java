package dev.vigil.ingest.otlp;

/** An OTLP body or line that cannot be read, with the reason it is counted under. */
public final class OtlpFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  private final String reason;

  /**
   * @param reason the skip reason, lower snake case ({@code otlp_not_json})
   * @param message what is wrong, in one line
   */
  public OtlpFormatException(String reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** The skip reason this input is counted under. */
  public String reason() {
    return reason;
  }
}
