package dev.vigil.observe.agent;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * This process's id, for the events and the ids Vigil makes. On Linux it is read from the {@code
 * /proc/self} link, the same number {@link ProcessHandle} gives: asking {@link ProcessHandle} first
 * starts the JDK's process machinery (a thread pool and the lambdas it links, milliseconds of a
 * short process's start; docs/DESIGN.md#the-start-path). Elsewhere, or when the link cannot be
 * read, {@link ProcessHandle} answers.
 */
public final class ProcessId {
  private static final Path SELF = Path.of("/proc/self");

  private static volatile long pid;

  private ProcessId() {}

  /** This process's id, looked up once. */
  public static long current() {
    long p = pid;
    if (p == 0) {
      p = fromProc(SELF);
      if (p <= 0) {
        p = ProcessHandle.current().pid();
      }
      pid = p;
    }
    return p;
  }

  /** The process id that the link {@code self} names, or -1 when it cannot be read as one. */
  static long fromProc(Path self) {
    try {
      return Long.parseLong(Files.readSymbolicLink(self).toString());
    } catch (Exception unreadable) {
      return -1;
    }
  }
}
