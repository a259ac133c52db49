package dev.vigil.bench;

/**
 * The smallest application, for the start-up figure: its first act in {@code main} is to print
 * {@link System#nanoTime()}. On Linux that clock is the system-wide monotonic clock, so the launching process can
 * subtract the instant it started the JVM and get the time from launch to {@code main}.
 */
public final class StartupProbe {
  private StartupProbe() {}

  public static void main(String[] args) {
    long now = System.nanoTime();
    System.out.println(now);
  }
}
