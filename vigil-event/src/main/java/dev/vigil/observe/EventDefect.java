package dev.vigil.observe;

/**
 * Why an input line or excerpt could not be read as an {@link Event}; the {@link #code()} is the
 * key under which the analyzer counts skipped input (docs/DESIGN.md#the-window,
 * docs/DESIGN.md#bad-input).
 */
public enum EventDefect {
  /** Not parseable JSON, or JSON that is not an object. */
  NOT_JSON("not_json"),
  /**
   * A required field ({@code ts}, {@code kind}, {@code status}, {@code payload}) is absent or null.
   */
  MISSING_FIELD("missing_field"),
  /** {@code ts} is not a readable ISO-8601 timestamp. */
  BAD_TS("bad_ts"),
  /** A known field has the wrong JSON type, for example a payload that is not an object. */
  BAD_FIELD("bad_field"),
  /** A queue excerpt that was not written by Vigil's codec, or was cut short. */
  NOT_AN_EVENT("not_an_event");

  private final String code;

  EventDefect(String code) {
    this.code = code;
  }

  /** The snake_case key used in reports. */
  public String code() {
    return code;
  }
}
