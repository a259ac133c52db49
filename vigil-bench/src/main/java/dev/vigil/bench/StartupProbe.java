package dev.vigil.bench;

/**
 * The smallest application, for the start-up figure: its first act in {@code main} is to print
 * {@link System#nanoTime()}. On Linux that clock is the system-wide monotonic clock, so the launching process can
 * subtract the instant it started the JVM and get the time from launch to {@code main}.
 */
public final class StartupProbe {
  private StartupProbe() {}

  /** With the argument {@code linger} it then stays up {@link #LINGER_MS}, for figures an agent reports later. */
  public static void main(String[] args) throws InterruptedException {
    long now = System.nanoTime();
    System.out.println(now);
    if (args.length > 0 && args[0].equals("linger")) {
      Thread.sleep(LINGER_MS);
    }
  }

  static final long LINGER_MS = 3_000;
}
