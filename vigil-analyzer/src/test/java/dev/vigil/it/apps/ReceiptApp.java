package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A LangChain4j tool whose backend confirms each reminder with a receipt 300 ms later, on another thread. With
 * {@code premature} the tool answers at once (the paper's fault); with {@code gated} it waits for the receipt.
 * Knows nothing of Vigil: the receipt method is captured through {@code vigil.methods.include}.
 */
public final class ReceiptApp {
  /** The reminder backend. */
  public static final class Backend {
    private final ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    private final AtomicInteger next = new AtomicInteger();
    private final Map<String, CountDownLatch> receipts = new ConcurrentHashMap<>();

    String schedule(String task) {
      String id = "r-" + next.incrementAndGet();
      receipts.put(id, new CountDownLatch(1));
      executor.schedule(() -> confirm(id), 300, TimeUnit.MILLISECONDS);
      return id;
    }

    /** The backend's receipt. */
    public boolean confirm(String reminderId) {
      receipts.get(reminderId).countDown();
      return true;
    }

    boolean awaitReceipt(String id) throws InterruptedException {
      return receipts.get(id).await(5, TimeUnit.SECONDS);
    }
  }

  /** Robin's tool. */
  public static final class Tools {
    private final Backend backend;
    private final boolean gated;

    Tools(Backend backend, boolean gated) {
      this.backend = backend;
      this.gated = gated;
    }

    @Tool("Sets a reminder")
    public String setReminder(String task) throws InterruptedException {
      String id = backend.schedule(task);
      if (gated && !backend.awaitReceipt(id)) {
        return "{\"reminderId\":\"" + id + "\",\"status\":\"pending\"}";
      }
      return "{\"reminderId\":\"" + id + "\",\"status\":\"Reminder set\"}";
    }
  }

  public static void main(String[] args) throws Exception {
    Backend backend = new Backend();
    Tools tools = new Tools(backend, args.length > 0 && args[0].equals("gated"));
    Method method = Tools.class.getMethod("setReminder", String.class);
    DefaultToolExecutor executor = new DefaultToolExecutor(tools, method);
    for (String task : new String[] {"stretch", "call mom", "drink water"}) {
      ToolExecutionRequest request = ToolExecutionRequest.builder()
          .id("call-" + task.length()).name("setReminder").arguments("{\"task\":\"" + task + "\"}").build();
      System.out.println(executor.execute(request, "user-1"));
    }
    Thread.sleep(600); // the last receipt arrives
    backend.executor.shutdown();
  }

  private ReceiptApp() {}
}
