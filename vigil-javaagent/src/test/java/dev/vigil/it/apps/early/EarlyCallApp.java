package dev.vigil.it.apps.early;

/**
 * Calls its tools in the first lines of {@code main}, while the agent may still be building its
 * instrumentation. Its own class file names neither the included interface nor the {@code @Tool}
 * annotation, so it starts at once; the first tool class it touches is the one held back. With the
 * argument {@code tools-first} that is the {@code @Tool} class, else the indirect subtype of the
 * included interface.
 */
public final class EarlyCallApp {
  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("tools-first")) {
      System.out.println(new PingTools().ping("robin"));
      System.out.println(new SmsChannel().send("tea at five"));
    } else {
      System.out.println(new SmsChannel().send("tea at five"));
      System.out.println(new PingTools().ping("robin"));
    }
  }

  private EarlyCallApp() {}
}
