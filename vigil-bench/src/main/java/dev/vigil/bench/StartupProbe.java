package dev.vigil.bench;

/**
 * The smallest application that uses a tool, for the start-up figure: its first act in {@code main}
 * is to print {@link System#nanoTime()}, then it calls {@link StartupTool#lookup} once, prints
 * {@link System#nanoTime()} again and exits. On Linux that clock is the system-wide monotonic
 * clock, so the launching process can subtract the instant it started the JVM and get the time to
 * {@code main} and to the tool's answer; the whole process ends when the agent has written the call
 * at shutdown.
 */
public final class StartupProbe {
  private StartupProbe() {}

  /**
   * With the argument {@code linger} it then stays up {@link #LINGER_MS}, for figures an agent
   * reports later.
   */
  public static void main(String[] args) throws InterruptedException {
    System.out.println(System.nanoTime());
    String answer = new StartupTool().lookup("MS-777");
    System.out.println(System.nanoTime());
    if (answer.isEmpty()) {
      throw new IllegalStateException("the tool gave no answer");
    }
    if (args.length > 0 && args[0].equals("linger")) {
      Thread.sleep(LINGER_MS);
    }
  }

  static final long LINGER_MS = 3_000;
}
