package dev.vigil.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The share of a child JVM's CPU that its JIT compiler threads ({@code C1 CompilerThread…}, {@code
 * C2 CompilerThread…}) took, from the per-thread clock ticks of {@code /proc/PID/task/TID/stat}
 * (Linux), sampled every {@value #EVERY_MS} ms while the process runs: on two cores, what a short
 * run of the analyzer waits for. Threads that ended keep their last sample; the last interval
 * before the process's exit is not seen.
 */
final class JitShare implements AutoCloseable {
  static final long EVERY_MS = 50;

  /** A thread's name and its user plus system ticks at the last sample. */
  private record Ticks(String name, long ticks) {}

  private final Process process;
  private final Thread sampler;

  /** The JVM sampled: the process, or its child when the process is {@code /usr/bin/time}. */
  private ProcessHandle jvm;

  /** By thread id. */
  private final Map<String, Ticks> threads = new HashMap<>();

  private JitShare(Process process) {
    this.process = process;
    this.sampler = new Thread(this::sample, "jit-share");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Starts sampling {@code process}, or the JVM it runs when it is {@code /usr/bin/time}. */
  static JitShare of(Process process) {
    return new JitShare(process);
  }

  private void sample() {
    boolean timed = process.info().command().map(c -> c.endsWith("/time")).orElse(false);
    while (process.isAlive() && !Thread.currentThread().isInterrupted()) {
      if (jvm == null) {
        jvm = timed ? process.toHandle().children().findFirst().orElse(null) : process.toHandle();
      }
      if (jvm == null) { // time has not started the JVM yet
        pause();
        continue;
      }
      Path tasks = Path.of("/proc", Long.toString(jvm.pid()), "task");
      try (Stream<Path> ids = Files.list(tasks)) {
        ids.forEach(this::read);
      } catch (IOException | RuntimeException gone) {
        // the process ended between two samples, or there is no /proc: what was seen stands
      }
      pause();
    }
  }

  private void pause() {
    try {
      Thread.sleep(EVERY_MS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void read(Path task) {
    try {
      String stat = Files.readString(task.resolve("stat"));
      String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long ticks = Long.parseLong(after[11]) + Long.parseLong(after[12]);
      synchronized (threads) {
        threads.put(task.getFileName().toString(), new Ticks(name, ticks));
      }
    } catch (IOException | RuntimeException gone) {
      // the thread ended
    }
  }

  /**
   * Waits for the sampling to end (the process has exited); the share, or -1 when none was seen.
   */
  double share() throws InterruptedException {
    sampler.join();
    long all = 0;
    long jit = 0;
    synchronized (threads) {
      for (Ticks t : threads.values()) {
        all += t.ticks();
        if (t.name().contains("CompilerThre")) {
          jit += t.ticks();
        }
      }
    }
    return all == 0 ? -1 : (double) jit / all;
  }

  @Override
  public void close() {
    sampler.interrupt();
  }
}
