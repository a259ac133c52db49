package dev.vigil.it.apps.early;

/**
 * An indirect subtype of {@link Channel}: its own class file does not name the included interface.
 */
public final class SmsChannel extends BaseChannel {
  @Override
  public String send(String message) {
    return prefix() + message.length();
  }
}
