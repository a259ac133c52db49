package dev.vigil.io;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The one format of Vigil's messages on stderr, for every command: {@code 2026-11-26T12:30:05Z
 * vigil watch WARN: pass failed (...)}, the UTC time to the second, the command, the level, then
 * the message.
 */
public final class Notice {
  /** How much a message matters. */
  public enum Level {
    /** Progress and what was done. */
    INFO,
    /** Something went wrong and the command goes on. */
    WARN,
    /** The command stops. */
    ERROR
  }

  private Notice() {}

  /** The line of a message. */
  public static String line(Instant at, String command, Level level, String message) {
    return at.truncatedTo(ChronoUnit.SECONDS) + " vigil " + command + " " + level + ": " + message;
  }
}
