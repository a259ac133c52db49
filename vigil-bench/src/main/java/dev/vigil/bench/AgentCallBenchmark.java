package dev.vigil.bench;

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
 * Java agent, where only {@link Tools#tool} is instrumented; {@code baseline} calls the identical,
 * uninstrumented {@link Tools#plain}. Each call also burns about as much CPU as a small tool does,
 * so that calls arrive at a rate the writer thread keeps up with, as tool calls of an agent do (a
 * back-to-back loop of millions of calls a second would measure the writer's throughput instead).
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
  @Param("3000")
  int work;

  /** The two methods; identical bodies. */
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
  }

  private Tools tools;
  private final String when = "in 30 minutes";
  private int count;

  @Setup
  public void setUp() {
    tools = new Tools(work);
  }

  @Benchmark
  public String baseline() {
    return tools.plain(when, count++);
  }

  @Benchmark
  public String instrumented() {
    return tools.tool(when, count++);
  }
}
