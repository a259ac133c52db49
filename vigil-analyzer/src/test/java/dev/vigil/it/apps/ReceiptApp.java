package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A LangChain4j tool whose backend confirms each reminder with a receipt, sent on the backend's own
 * thread. The app fixes the order of answers and receipts, not a timer: with {@code premature} the
 * tool answers at once (the paper's fault) and the backend sends the three receipts after the three
 * answers; with {@code gated} the tool asks for its receipt and answers only once it is in. The app
 * ends when every receipt is in. Knows nothing of Vigil: the receipt method is captured through
 * {@code vigil.methods.include}.
 */
public final class ReceiptApp {
  /**
   * The least time between a receipt and the answer on either side of it, so that their timestamps
   * are ordered whatever the rounding of durations to microseconds and the agent's
   * resynchronization with the wall clock. A lower bound on the machine's clock, never a wait for
   * something to happen.
   */
  static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** The reminder backend. */
  public static final class Backend {
    private final ExecutorService receipts = Executors.newSingleThreadExecutor();
    private final AtomicInteger next = new AtomicInteger();
    private final Map<String, CountDownLatch> confirmed = new ConcurrentHashMap<>();

    String schedule(String task) {
      String id = "r-" + next.incrementAndGet();
      confirmed.put(id, new CountDownLatch(1));
      return id;
    }

    /** Sends the receipt of a reminder, on the backend's thread. */
    Future<?> sendReceipt(String reminderId) {
      return receipts.submit(() -> confirm(reminderId));
    }

    /** The backend's receipt. */
    public boolean confirm(String reminderId) {
      confirmed.get(reminderId).countDown();
      return true;
    }

    boolean awaitReceipt(String id) throws InterruptedException {
      return confirmed.get(id).await(60, TimeUnit.SECONDS);
    }

    void shutdown() throws InterruptedException {
      receipts.shutdown();
      receipts.awaitTermination(60, TimeUnit.SECONDS);
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

    // the receipt is awaited through its latch (awaitReceipt), not through its future
    @SuppressWarnings("FutureReturnValueIgnored")
    @Tool("Sets a reminder")
    public String setReminder(String task) throws InterruptedException {
      String id = backend.schedule(task);
      if (gated) {
        backend.sendReceipt(id);
        if (!backend.awaitReceipt(id)) {
          return "{\"reminderId\":\"" + id + "\",\"status\":\"pending\"}";
        }
        spaceOut(System.nanoTime());
      }
      return "{\"reminderId\":\"" + id + "\",\"status\":\"Reminder set\"}";
    }
  }

  public static void main(String[] args) throws Exception {
    Backend backend = new Backend();
    boolean gated = args.length > 0 && args[0].equals("gated");
    Tools tools = new Tools(backend, gated);
    Method method = Tools.class.getMethod("setReminder", String.class);
    DefaultToolExecutor executor = new DefaultToolExecutor(tools, method);
    List<String> ids = new ArrayList<>();
    for (String task : new String[] {"stretch", "call mom", "drink water"}) {
      ToolExecutionRequest request =
          ToolExecutionRequest.builder()
              .id("call-" + task.length())
              .name("setReminder")
              .arguments("{\"task\":\"" + task + "\"}")
              .build();
      System.out.println(executor.execute(request, "user-1"));
      ids.add("r-" + (ids.size() + 1));
    }
    if (!gated) {
      spaceOut(System.nanoTime()); // every answer is out; the receipts come after them, in order
      for (String id : ids) {
        backend.sendReceipt(id).get(60, TimeUnit.SECONDS);
      }
    }
    backend.shutdown();
  }

  /**
   * Returns once {@link #SPACING_NANOS} have passed since {@code from} on the machine's monotonic
   * clock.
   */
  static void spaceOut(long from) {
    while (System.nanoTime() - from < SPACING_NANOS) {
      LockSupport.parkNanos(SPACING_NANOS);
    }
  }

  private ReceiptApp() {}
}
