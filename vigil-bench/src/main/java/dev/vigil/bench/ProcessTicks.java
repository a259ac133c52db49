package dev.vigil.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's user and system CPU time in clock ticks, from {@code /proc/self/stat} (Linux), so
 * that a CPU figure can say how much of it the kernel spent on the process's behalf: page faults,
 * the file system, system calls. The split is taken from the ticks and applied to the JVM's own CPU
 * time, so the tick's length need not be known.
 */
final class ProcessTicks {
  private ProcessTicks() {}

  /** {@code {user, system}} ticks so far, or null where {@code /proc/self/stat} cannot be read. */
  static long[] read() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // the command's name, in parentheses, may hold spaces: the fields after it are counted from
      // the last ')' on; utime and stime are the 14th and 15th fields, the 12th and 13th after it
      String[] after = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return new long[] {Long.parseLong(after[11]), Long.parseLong(after[12])};
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The system time's share of {@code cpuNanos}, the process's CPU time since {@code before} was
   * {@link #read}; -1 when either reading is missing. When no tick passed (less than a tick of CPU,
   * 10 ms on most systems), 0.
   */
  static long systemShare(long[] before, long cpuNanos) {
    long[] now = read();
    if (before == null || now == null) {
      return -1;
    }
    long user = now[0] - before[0];
    long system = now[1] - before[1];
    return user + system <= 0 ? 0 : Math.round((double) cpuNanos * system / (user + system));
  }
}
