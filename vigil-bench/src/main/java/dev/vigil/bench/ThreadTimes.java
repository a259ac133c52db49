package dev.vigil.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * The CPU time of the threads an agent runs beside the application ({@link BackToBackApp}'s calling
 * threads left out), so that a round can say which of them was busiest and how much of its time the
 * kernel took: with a queue written through a memory mapping, the thread that writes pays for each
 * new page of the file. From the JVM's thread MX bean: CPU and user time, system time their
 * difference.
 */
final class ThreadTimes {
  /** One thread's times, in nanoseconds. */
  record Times(String name, long cpu, long user) {}

  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Map<Long, Times> byId;

  private ThreadTimes(Map<Long, Times> byId) {
    this.byId = byId;
  }

  /** The times so far of every live thread but the application's own. */
  static ThreadTimes now() {
    Map<Long, Times> all = new HashMap<>();
    if (!THREADS.isThreadCpuTimeSupported()) {
      return new ThreadTimes(all);
    }
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null || isApplications(info.getThreadName())) {
        continue;
      }
      long id = info.getThreadId();
      long cpu = THREADS.getThreadCpuTime(id);
      long user = THREADS.getThreadUserTime(id);
      if (cpu >= 0 && user >= 0) {
        all.put(id, new Times(info.getThreadName(), cpu, user));
      }
    }
    return new ThreadTimes(all);
  }

  /** The thread that spent the most CPU since {@code before}, with what it spent; null if none. */
  Times busiestSince(ThreadTimes before) {
    Times busiest = null;
    for (Map.Entry<Long, Times> e : byId.entrySet()) {
      Times then = before.byId.get(e.getKey());
      Times t = e.getValue();
      Times spent =
          then == null ? t : new Times(t.name(), t.cpu() - then.cpu(), t.user() - then.user());
      if (busiest == null || spent.cpu() > busiest.cpu()) {
        busiest = spent;
      }
    }
    return busiest;
  }

  private static boolean isApplications(String name) {
    return name.equals("main") || name.startsWith("caller-");
  }
}
