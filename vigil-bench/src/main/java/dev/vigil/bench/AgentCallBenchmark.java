package dev.vigil.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The time the javaagent adds to one instrumented call, arguments and result captured. Run by {@link AgentOverhead}
 * in a JVM with {@code -javaagent:vigil.jar} where only {@link Tools#tool} is instrumented; {@code baseline} calls
 * the identical, uninstrumented {@link Tools#plain}. Each call also burns about as much CPU as a small tool does, so
 * that calls arrive at a rate the writer thread keeps up with, as they do in an agent (a back-to-back loop of
 * millions of calls a second would measure the writer's throughput instead).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AgentCallBenchmark {
  /** CPU burnt per call, in JMH tokens. */
  static final int WORK = 5_000;

  /** The two methods; identical bodies. */
  public static class Tools {
    public String tool(String when, int count) {
      Blackhole.consumeCPU(WORK);
      return "Reminder set " + when + " x" + count;
    }

    public String plain(String when, int count) {
      Blackhole.consumeCPU(WORK);
      return "Reminder set " + when + " x" + count;
    }
  }

  private final Tools tools = new Tools();
  private final String when = "in 30 minutes";
  private int count;

  @Benchmark
  public String baseline() {
    return tools.plain(when, count++);
  }

  @Benchmark
  public String instrumented() {
    return tools.tool(when, count++);
  }
}
