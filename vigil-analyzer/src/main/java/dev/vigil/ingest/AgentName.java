package dev.vigil.ingest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * An agent's name as shown in reports, and as a directory name under {@code agents/}.
 *
 * <p>The directory rule: letters, digits, {@code .}, {@code _} and {@code -} are kept; every other
 * character becomes {@code _}; a leading {@code .} becomes {@code _} (no hidden directories, no
 * {@code ..}); the name is cut to 64 characters. When anything was changed, {@code -} and the first
 * 8 hex digits of the SHA-1 of the original name are appended, so two names that differ only in
 * replaced characters never share a directory.
 */
public final class AgentName {
  /** The name of events that carry no {@code agent}. */
  public static final String UNNAMED = "unnamed";

  /** The longest directory name kept before the hash suffix. */
  static final int MAX_CHARS = 64;

  private AgentName() {}

  /**
   * The name reports use: the event's {@code agent}, or {@link #UNNAMED} when it has none or a
   * blank one.
   */
  public static String display(String agent) {
    return agent == null || agent.isBlank() ? UNNAMED : agent;
  }

  /** The directory name for a display name, safe on every file system. */
  public static String directory(String name) {
    StringBuilder b = new StringBuilder(Math.min(name.length(), MAX_CHARS));
    for (int i = 0; i < name.length() && b.length() < MAX_CHARS; i++) {
      char c = name.charAt(i);
      boolean safe =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || (c >= '0' && c <= '9')
              || c == '_'
              || c == '-'
              || (c == '.' && i > 0);
      b.append(safe ? c : '_');
    }
    String safe = b.toString();
    return safe.equals(name) ? safe : safe + "-" + sha1(name).substring(0, 8);
  }

  private static String sha1(String s) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-1").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required by every Java platform", e);
    }
  }
}
