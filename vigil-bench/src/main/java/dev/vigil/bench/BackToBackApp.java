package dev.vigil.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * The application of the back-to-back and CPU figures ({@link BackToBack}): a tiny tool called as
 * fast as the calling threads can, driven from stdin. Knows nothing of Vigil or OpenTelemetry: the
 * benchmark attaches an agent that instruments {@link #tool}.
 *
 * <p>Three shapes of call, chosen by the first program argument. {@code literal}: {@link #tool}
 * with the same string literal every time and an {@code int} back, which the agent's encoder meets
 * as values it has just written. {@code fresh}, as applications call tools: {@link #forecast} with
 * a question string built for each call and a small record, returning a new record of three fields
 * with a string built for each call. {@code objects}, as tools that take and give objects which can
 * change: {@link #plan} with a bean built for each call, returning a new map of three entries; the
 * agent must copy such values at the call.
 *
 * <p>A line {@code T N} makes N calls on each of T threads (T = 1: the main thread), started
 * together, and prints {@code loop <T x N> <start nanoTime> <loop nanos> <process CPU nanos at
 * start>}; the benchmark then waits until the agent has written every event and answers {@code
 * drained}, whereupon the application prints {@code cpu <process CPU nanos from the start until
 * then> <system time of it, nanos, or -1 where the system does not say> <CPU nanos> <user nanos>
 * <name>}, the last three those of the busiest thread other than the calling ones ({@link
 * ThreadTimes}), when there is one. End of input ends the process.
 */
public final class BackToBackApp {
  private static volatile long sink;

  private static final String[] CITIES = {"Paris", "Lyon", "Nantes", "Lille"};

  /** What {@link #forecast} is asked about. */
  public record Query(String city, int days) {}

  /** What {@link #forecast} answers. */
  public record Forecast(String city, int high, String summary) {}

  /**
   * What {@link #plan} is asked about: a bean built for each call, a class rather than a record, so
   * that an agent cannot know it will not change and must copy it at the call (no getters).
   */
  public static final class Trip {
    private final String question;
    private final String city;
    private final int days;

    Trip(String question, String city, int days) {
      this.question = question;
      this.city = city;
      this.days = days;
    }
  }

  private final String shape;

  private BackToBackApp(String shape) {
    this.shape = shape;
  }

  /** The literal shape's tool: a string and a number in, a number out; nothing else. */
  public int tool(String query, int n) {
    return query.length() + n;
  }

  /** The fresh shape's tool: a new record out, with a summary built for this call. */
  public Forecast forecast(String question, Query query) {
    return forecastOf(question, query);
  }

  /**
   * What {@link #forecast} answers, for the per-call benchmark's tool too ({@link
   * AgentCallBenchmark}).
   */
  static Forecast forecastOf(String question, Query query) {
    int high = 10 + (question.length() + query.days()) % 15;
    return new Forecast(
        query.city(), high, "sunny in " + query.city() + " for " + query.days() + " days");
  }

  /** The objects shape's tool: a new map out, with a summary built for this call. */
  public Map<String, Object> plan(Trip trip) {
    return planOf(trip);
  }

  /**
   * What {@link #plan} answers, for the per-call benchmark's tool too ({@link AgentCallBenchmark}).
   */
  static Map<String, Object> planOf(Trip trip) {
    Map<String, Object> plan = new LinkedHashMap<>(4);
    plan.put("city", trip.city);
    plan.put("high", 10 + (trip.question.length() + trip.days) % 15);
    plan.put("summary", "sunny in " + trip.city + " for " + trip.days + " days");
    return plan;
  }

  /** The question of call {@code i} (0 to 1023), built for this call. */
  static String questionOf(int i) {
    return "weather in " + CITIES[i & 3] + " on day " + i;
  }

  /** The fresh shape's record argument of call {@code i}, new for this call. */
  static Query queryOf(int i) {
    return new Query(CITIES[i & 3], 1 + (i & 7));
  }

  /** The objects shape's bean argument of call {@code i}, new for this call. */
  static Trip tripOf(int i) {
    return new Trip(questionOf(i), CITIES[i & 3], 1 + (i & 7));
  }

  /** One call of the chosen shape; {@code i} goes round 0 to 1023. */
  private int call(int i) {
    return switch (shape) {
      case "fresh" -> forecast(questionOf(i), queryOf(i)).high();
      case "objects" -> plan(tripOf(i)).size();
      default -> tool("weather in Paris", i);
    };
  }

  public static void main(String[] args) throws Exception {
    BackToBackApp app = new BackToBackApp(args.length > 0 ? args[0] : "literal");
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length != 2) {
        continue;
      }
      int threads = Integer.parseInt(parts[0]);
      int calls = Integer.parseInt(parts[1]);
      long cpu = os.getProcessCpuTime();
      long[] ticks = ProcessTicks.read();
      ThreadTimes threadsBefore = ThreadTimes.now();
      long start = System.nanoTime();
      if (threads == 1) {
        calls(app, calls);
      } else {
        inThreads(app, threads, calls);
      }
      long loop = System.nanoTime() - start;
      System.out.println("loop " + (long) threads * calls + " " + start + " " + loop + " " + cpu);
      System.out.flush();
      if (!"drained".equals(in.readLine())) {
        return;
      }
      long spent = os.getProcessCpuTime() - cpu;
      ThreadTimes.Times busiest = ThreadTimes.now().busiestSince(threadsBefore);
      System.out.println(
          "cpu "
              + spent
              + " "
              + ProcessTicks.systemShare(ticks, spent)
              + (busiest == null
                  ? ""
                  : " " + busiest.cpu() + " " + busiest.user() + " " + busiest.name()));
      System.out.flush();
    }
  }

  /**
   * The calls of one thread; the number passed goes round 0 to 1023, so that the warm-up round has
   * seen every value the measured rounds pass (a number never seen before would make the JIT
   * compile the agent's code again, inside the measurement).
   */
  private static void calls(BackToBackApp app, int calls) {
    long sum = 0;
    for (int i = 0; i < calls; i++) {
      sum += app.call(i & 1023);
    }
    sink = sum;
  }

  private static void inThreads(BackToBackApp app, int threads, int calls)
      throws InterruptedException {
    CountDownLatch go = new CountDownLatch(1);
    CountDownLatch ready = new CountDownLatch(threads);
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                ready.countDown();
                try {
                  go.await();
                } catch (InterruptedException e) {
                  return;
                }
                calls(app, calls);
              },
              "caller-" + t);
      all.add(th);
      th.start();
    }
    ready.await();
    go.countDown();
    for (Thread th : all) {
      th.join();
    }
  }
}
