package dev.vigil.bench;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The time an agent adds to one instrumented call. Run by {@link BenchmarkSuite} in a JVM with
 * {@code -javaagent:vigil.jar} (arguments and result captured, events written) or the OpenTelemetry
 * Java agent, where only {@link Tools#tool}, {@link Tools#forecast} and {@link Tools#plan} are
 * instrumented; {@code baseline} calls their identical, uninstrumented twins. Each call also burns
 * about as much CPU as a small tool does, so that calls arrive at a rate the writer thread keeps up
 * with, as tool calls of an agent do (a back-to-back loop of millions of calls a second would
 * measure the writer's throughput instead).
 *
 * <p>Three shapes of call, as in the back-to-back figures ({@link BackToBackApp}): {@code fresh}, a
 * question built for each call and a new record in, a new record of three fields out; {@code
 * objects}, a new bean in and a new map out, values the agent must copy at the call; {@code
 * literal}, the same string literal in and a string built for each call out.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AgentCallBenchmark {
  /**
   * CPU burnt per call, in JMH tokens (about 1.5 ns each here, so about 4.5 us a call): enough that
   * the writer thread keeps up with one calling thread without ever filling its buffer (at 2000
   * tokens, some 80 MB/s of events, the mean caught the writer's occasional stalls on the queue
   * file), small enough that the machine's noise stays small next to the figure measured.
   */
  @Param(WORK)
  int work;

  /** {@link #work}'s one value, which {@link PairedCalls} gives its calls too. */
  static final String WORK = "3000";

  /** The shape of the call. */
  @Param({"fresh", "objects", "literal"})
  String shape;

  /** The instrumented methods and their twins; identical bodies. */
  public static class Tools {
    private final int work;

    Tools(int work) {
      this.work = work;
    }

    public String tool(String when, int count) {
      Blackhole.consumeCPU(work);
      return "Reminder set " + when + " x" + count;
    }

    public String plain(String when, int count) {
      Blackhole.consumeCPU(work);
      return "Reminder set " + when + " x" + count;
    }

    public BackToBackApp.Forecast forecast(String question, BackToBackApp.Query query) {
      Blackhole.consumeCPU(work);
      return BackToBackApp.forecastOf(question, query);
    }

    public BackToBackApp.Forecast plainForecast(String question, BackToBackApp.Query query) {
      Blackhole.consumeCPU(work);
      return BackToBackApp.forecastOf(question, query);
    }

    public Map<String, Object> plan(BackToBackApp.Trip trip) {
      Blackhole.consumeCPU(work);
      return BackToBackApp.planOf(trip);
    }

    public Map<String, Object> plainPlan(BackToBackApp.Trip trip) {
      Blackhole.consumeCPU(work);
      return BackToBackApp.planOf(trip);
    }
  }

  private Tools tools;
  private final String when = "in 30 minutes";
  private int count;

  @Setup
  public void setUp() {
    tools = new Tools(work);
  }

  @Benchmark
  public Object baseline() {
    int n = count++;
    int i = n & 1023;
    return switch (shape) {
      case "fresh" -> tools.plainForecast(BackToBackApp.questionOf(i), BackToBackApp.queryOf(i));
      case "objects" -> tools.plainPlan(BackToBackApp.tripOf(i));
      default -> tools.plain(when, n);
    };
  }

  @Benchmark
  public Object instrumented() {
    int n = count++;
    int i = n & 1023;
    return switch (shape) {
      case "fresh" -> tools.forecast(BackToBackApp.questionOf(i), BackToBackApp.queryOf(i));
      case "objects" -> tools.plan(BackToBackApp.tripOf(i));
      default -> tools.tool(when, n);
    };
  }
}
