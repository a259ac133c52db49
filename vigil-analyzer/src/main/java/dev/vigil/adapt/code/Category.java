package dev.vigil.adapt.code;

/** What a {@link Hotspot} is about. */
public enum Category {
  /**
   * Time handled without a zone: {@code LocalDateTime}, {@code java.util.Date}, parsing without a
   * zone.
   */
  NAIVE_TIME("naive time"),
  /** A scheduling call: {@code schedule(...)}, {@code Timer}, {@code @Scheduled}. */
  SCHEDULING("scheduling"),
  /** A receipt, acknowledgement or confirmation path, or a future whose result is ignored. */
  RECEIPT("receipt/confirmation"),
  /**
   * A call that leaves the process: HTTP, Spring's {@code RestTemplate}/{@code WebClient}, JDBC.
   */
  REMOTE_CALL("remote call"),
  /** A {@code catch} block. */
  CATCH_BLOCK("catch block");

  private final String label;

  Category(String label) {
    this.label = label;
  }

  /** The words a report prints for this category. */
  public String label() {
    return label;
  }
}
