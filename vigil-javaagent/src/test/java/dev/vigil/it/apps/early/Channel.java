package dev.vigil.it.apps.early;

/** The interface {@code vigil.methods.include} names. */
public interface Channel {
  String send(String message);
}
