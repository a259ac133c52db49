package dev.vigil.emobank;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The episode of a cause (docs/DESIGN.md#the-emobank): the first 12 hex digits of the SHA-1 of the
 * cause string.
 */
final class Episode {
  private static final Map<String, String> CACHE = new ConcurrentHashMap<>();

  private Episode() {}

  /** The episode id of a cause. */
  public static String of(String cause) {
    return CACHE.computeIfAbsent(cause, Episode::compute);
  }

  private static String compute(String cause) {
    try {
      byte[] sha1 =
          MessageDigest.getInstance("SHA-1").digest(cause.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha1).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is required by every Java platform", e);
    }
  }
}
