package dev.vigil.eval;

/**
 * A session's directory name under {@code eval --reports}: its id, with anything but letters,
 * digits and {@code . - _} replaced by {@code _}.
 */
final class SessionDirs {
  private SessionDirs() {}

  /** The directory name of a session; an empty or dot-only id becomes {@code _}. */
  static String name(String session) {
    String n = session.replaceAll("[^A-Za-z0-9._-]", "_");
    return n.isEmpty() || n.chars().allMatch(c -> c == '.') ? "_" + n : n;
  }
}
