package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A LangChain4j agent that makes tool calls at a steady rate until its stdin ends (the soak's agent
 * process): {@code SteadyCallsApp <calls per second> <every Nth call fails>}. Prints {@code calls
 * <total>} about once a second and when it ends, so that a test sees it is calling and, after a
 * clean end, how many calls it made. Knows nothing of Vigil; uses {@link ToolCallsApp}'s tools.
 */
public final class SteadyCallsApp {
  private static volatile boolean stopping;

  public static void main(String[] args) throws Exception {
    double perSecond = Double.parseDouble(args[0]);
    int failEvery = Integer.parseInt(args[1]);
    ToolCallsApp.Tools tools = new ToolCallsApp.Tools();
    DefaultToolExecutor ok =
        new DefaultToolExecutor(tools, ToolCallsApp.Tools.class.getMethod("lookUp", String.class));
    DefaultToolExecutor fail =
        new DefaultToolExecutor(
            tools, ToolCallsApp.Tools.class.getMethod("bookSlot", String.class));
    Thread stdin = new Thread(SteadyCallsApp::awaitEndOfInput, "stdin");
    stdin.setDaemon(true);
    stdin.start();
    long start = System.nanoTime();
    long nextPrint = start + TimeUnit.SECONDS.toNanos(1);
    long total = 0;
    while (!stopping) {
      long now = System.nanoTime();
      long due = (long) ((now - start) / 1e9 * perSecond);
      for (; total < due && !stopping; total++) {
        boolean failing = failEvery > 0 && (total + 1) % failEvery == 0;
        ToolExecutionRequest request =
            ToolExecutionRequest.builder()
                .id("call-" + (total + 1))
                .name(failing ? "bookSlot" : "lookUp")
                .arguments(
                    failing
                        ? "{\"when\":\"slot " + (total + 1) + "\"}"
                        : "{\"what\":\"item " + (total + 1) + "\"}")
                .build();
        (failing ? fail : ok).execute(request, "user-1");
      }
      if (now >= nextPrint) {
        System.out.println("calls " + total);
        System.out.flush();
        nextPrint += TimeUnit.SECONDS.toNanos(1);
      }
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
    }
    System.out.println("calls " + total);
    System.out.println("ended");
    System.out.flush();
  }

  private static void awaitEndOfInput() {
    InputStream in = System.in;
    try {
      while (in.read() >= 0) {
        // nothing to read: the end of input is the signal to stop
      }
    } catch (IOException e) {
      // stdin closed under us: stop as well
    }
    stopping = true;
  }

  private SteadyCallsApp() {}
}
