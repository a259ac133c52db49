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

  private final Process process;
  private final Thread sampler;

  /** Per thread id: its name and its user plus system ticks at the last sample. */
  private final Map<String, Object[]> threads = new HashMap<>();

  private JitShare(Process process) {
    this.process = process;
    this.sampler = new Thread(this::sample, "jit-share");
    sampler.setDaemon(true);
    sampler.start();
  }

  /** Starts sampling {@code process}, or the JVM it started when it is {@code /usr/bin/time}. */
  static JitShare of(Process process) {
    return new JitShare(process);
  }

  private void sample() {
    while (process.isAlive()) {
      ProcessHandle jvm = process.toHandle().children().findFirst().orElse(process.toHandle());
      Path tasks = Path.of("/proc", Long.toString(jvm.pid()), "task");
      try (Stream<Path> ids = Files.list(tasks)) {
        ids.forEach(this::read);
      } catch (IOException | RuntimeException gone) {
        // the process ended between two samples, or there is no /proc: what was seen stands
      }
      try {
        Thread.sleep(EVERY_MS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void read(Path task) {
    try {
      String stat = Files.readString(task.resolve("stat"));
      String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long ticks = Long.parseLong(after[11]) + Long.parseLong(after[12]);
      synchronized (threads) {
        threads.put(task.getFileName().toString(), new Object[] {name, ticks});
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
      for (Object[] t : threads.values()) {
        long ticks = (Long) t[1];
        all += ticks;
        if (((String) t[0]).contains("CompilerThre")) {
          jit += ticks;
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
