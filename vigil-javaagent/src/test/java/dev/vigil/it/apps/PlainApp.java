package dev.vigil.it.apps;

/** A hand-written agent without any framework: its methods are named by vigil.methods.include. */
public final class PlainApp {
  /**
   * The backend as the agent sees it; the include names this interface, the implementation matches.
   */
  public interface Backend {
    String send(String message);

    boolean confirm(String receipt);
  }

  /** The implementation (a subtype of the included interface). */
  public static final class HttpBackend implements Backend {
    @Override
    public String send(String message) {
      return "r-" + message.length();
    }

    @Override
    public boolean confirm(String receipt) {
      return receipt.startsWith("r-");
    }
  }

  /** A class named with [*]. */
  public static final class Clock {
    public String now(String zone) {
      return "12:00 " + zone;
    }

    public int hour() {
      return 12;
    }
  }

  /** With the argument {@code linger}, it stays up {@link #LINGER_MS} after its calls. */
  public static void main(String[] args) throws InterruptedException {
    Backend backend = new HttpBackend();
    String receipt = backend.send("tea at five");
    System.out.println(receipt + " " + backend.confirm(receipt));
    Clock clock = new Clock();
    System.out.println(clock.now("UTC") + " " + clock.hour());
    if (args.length > 0 && args[0].equals("linger")) {
      Thread.sleep(LINGER_MS);
    }
  }

  /** Long enough for the agent to open its queue (half a second after the first call). */
  static final long LINGER_MS = 3_000;

  private PlainApp() {}
}
