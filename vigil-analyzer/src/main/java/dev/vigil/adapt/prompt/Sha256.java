package dev.vigil.adapt.prompt;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 digests as lower-case hex, the form kept in {@code OUT/prompts/index.jsonl}. */
final class Sha256 {
  private Sha256() {}

  /** The SHA-256 of some bytes, as 64 lower-case hex digits. */
  static String hex(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required by every Java platform", e);
    }
  }
}
