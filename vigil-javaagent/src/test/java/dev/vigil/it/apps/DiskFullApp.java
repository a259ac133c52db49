package dev.vigil.it.apps;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes {@code calls} calls of an included method with a kilobyte argument (more than the queue's
 * file system has room for), waits for the file {@code freed} in its control directory (the test
 * frees space meanwhile), then calls once every 20 ms until the file {@code stop} appears
 * (FullDiskIT). Every call's result is checked: the app prints how many calls it made and exits 0
 * only when each returned what it should.
 */
public final class DiskFullApp {
  /** The included method. */
  public static final class Tool {
    public int record(int i, String text) {
      return i + text.length();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Path control = Path.of(args[0]);
    int before = Integer.parseInt(args[1]);
    String text = "x".repeat(1024);
    Tool tool = new Tool();
    int calls = 0;
    int wrong = 0;
    for (; calls < before; calls++) {
      if (tool.record(calls, text) != calls + 1024) {
        wrong++;
      }
    }
    System.out.println("waiting for space");
    while (!Files.exists(control.resolve("freed"))) {
      Thread.sleep(10);
    }
    while (!Files.exists(control.resolve("stop"))) {
      if (tool.record(calls, text) != calls + 1024) {
        wrong++;
      }
      calls++;
      Thread.sleep(20);
    }
    System.out.println("calls: " + calls);
    System.out.println(wrong == 0 ? "all calls returned normally" : wrong + " calls went wrong");
    System.exit(wrong == 0 ? 0 : 1);
  }

  private DiskFullApp() {}
}
