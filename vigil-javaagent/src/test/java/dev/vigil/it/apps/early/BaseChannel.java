package dev.vigil.it.apps.early;

/**
 * Between the included interface and the class that is called: the include reaches it only through
 * this.
 */
public abstract class BaseChannel implements Channel {
  protected String prefix() {
    return "sms:";
  }
}
