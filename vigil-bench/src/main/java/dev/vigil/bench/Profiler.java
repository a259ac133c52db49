package dev.vigil.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * async-profiler attached to the agent's benchmark children ({@code bench/run.sh --profile}): its
 * native library taken out of this benchmark's jar, the JVM option that starts it in CPU mode and
 * writes collapsed stacks per thread at the child's exit, and a summary of such a file in text, so
 * that a profile is a figure in {@code docs/BENCHMARKS.md} rather than a binary: the threads'
 * shares, the hottest frames, and Vigil's own frames.
 */
final class Profiler {
  /** Milliseconds of CPU between samples. */
  static final int INTERVAL_MS = 1;

  /** Where the profiles are written, from the repository's root (as {@code bench/run.sh} runs). */
  static final Path PROFILES = Path.of("vigil-bench", "target", "profiles");

  private final Path library;
  private final Path profiles;

  private Profiler(Path library, Path profiles) {
    this.library = library;
    this.profiles = profiles;
  }

  /**
   * Copies the library for this machine into {@code work}; profiles go to {@link #PROFILES}.
   *
   * @throws IllegalStateException naming the system when async-profiler has no library for it
   */
  static Profiler prepare(Path work) throws IOException {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    String arch = System.getProperty("os.arch");
    String folder =
        !os.contains("linux")
            ? null
            : arch.equals("amd64") || arch.equals("x86_64")
                ? "linux-x64"
                : arch.equals("aarch64") ? "linux-arm64" : null;
    String resource = folder + "/libasyncProfiler.so";
    try (InputStream in =
        folder == null ? null : Profiler.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "--profile: async-profiler has no library for " + os + " " + arch + " in this jar");
      }
      Path library = work.resolve("libasyncProfiler.so");
      Files.write(library, in.readAllBytes());
      return new Profiler(library, Files.createDirectories(PROFILES).toAbsolutePath());
    }
  }

  /** The file of the profile named {@code name}, replaced when it exists. */
  Path file(String name) throws IOException {
    Path file = profiles.resolve(name + ".collapsed");
    Files.deleteIfExists(file);
    return file;
  }

  /** The JVM option that profiles a child until it exits, into {@code collapsed}. */
  String option(Path collapsed) {
    return "-agentpath:"
        + library
        + "=start,event=cpu,interval="
        + INTERVAL_MS
        + "ms,threads,file="
        + collapsed
        + ",collapsed";
  }

  /**
   * Prints the summary of one profile: each thread's share of the samples (numbered threads of one
   * pool together), then the {@code top} frames with the most samples of their own, then the {@code
   * top} frames of Vigil's classes with the most samples beneath them.
   */
  static void summarize(String title, Path collapsed, int top, PrintStream out) throws IOException {
    Map<String, Long> threads = new HashMap<>();
    Map<String, Long> self = new HashMap<>();
    Map<String, Long> vigil = new HashMap<>();
    long total = 0;
    try (Stream<String> lines = Files.lines(collapsed)) {
      for (String line : (Iterable<String>) lines::iterator) {
        int space = line.lastIndexOf(' ');
        if (space < 0) {
          continue;
        }
        long n = Long.parseLong(line.substring(space + 1));
        String[] frames = line.substring(0, space).split(";");
        total += n;
        threads.merge(thread(frames[0]), n, Long::sum);
        self.merge(frames[frames.length - 1], n, Long::sum);
        Set<String> seen = new HashSet<>();
        for (int i = 1; i < frames.length; i++) {
          if (isVigil(frames[i]) && seen.add(frames[i])) {
            vigil.merge(frames[i], n, Long::sum);
          }
        }
      }
    }
    out.printf(
        "%s (async-profiler, %,d samples of %d ms of CPU; %s):%n",
        title, total, INTERVAL_MS, collapsed);
    if (total == 0) {
      return;
    }
    out.println("  threads: " + shares(threads, total, 8, ", "));
    out.println("  frames, own samples:");
    out.println(shares(self, total, top, "\n"));
    out.println("  Vigil's frames, samples beneath them:");
    out.println(shares(vigil, total, top, "\n"));
  }

  /** A frame of Vigil's own classes, not of the benchmark's application. */
  private static boolean isVigil(String frame) {
    return frame.startsWith("dev/vigil/") && !frame.startsWith("dev/vigil/bench/");
  }

  /**
   * A thread's name without its closing number: {@code caller-7} and {@code caller-12} are one row
   * (async-profiler keeps the first 15 characters of a name).
   */
  private static String thread(String first) {
    String name = first.startsWith("[") ? first.substring(1, first.length() - 1) : first;
    int tid = name.indexOf(" tid=");
    if (tid >= 0) {
      name = name.substring(0, tid);
    }
    return name.replaceAll("\\d+$", "#");
  }

  private static String shares(Map<String, Long> counts, long total, int top, String separator) {
    List<Map.Entry<String, Long>> rows =
        counts.entrySet().stream()
            .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
            .limit(top)
            .toList();
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Long> e : rows) {
      if (b.length() > 0) {
        b.append(separator);
      }
      String share = String.format(Locale.ROOT, "%.1f %%", 100.0 * e.getValue() / total);
      b.append(
          separator.equals("\n") ? "    " + share + "  " + e.getKey() : e.getKey() + " " + share);
    }
    return b.toString();
  }
}
