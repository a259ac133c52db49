package dev.vigil.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Start-up as a user sees it, plain and with each agent: {@link StartupProbe}, whose {@code main}
 * calls a tool at once and exits, is launched in turn in every configuration, round after round
 * (the first two rounds are discarded as warm-up of the file cache), and the median of each
 * configuration is kept. Three times per launch, from the launch instant: to {@code main} (the
 * probe's first {@link System#nanoTime()}), to the tool's answer (its second), and the whole
 * process until it has exited (for an agent that records the call, until the call is written).
 */
final class StartupTimes {
  /** Median milliseconds of one configuration. */
  record Figure(String name, double toMainMs, double toolMs, double wholeMs) {}

  private static final int DISCARDED_ROUNDS = 2;

  private StartupTimes() {}

  /**
   * Measures each configuration.
   *
   * @param java the {@code java} launcher
   * @param configurations name to the JVM options before {@code -cp} (empty for plain)
   * @param rounds measured rounds
   * @param work where the probe class is put
   */
  static List<Figure> measure(
      String java, Map<String, List<String>> configurations, int rounds, Path work)
      throws Exception {
    Path probe = probeClassDir(work);
    Map<String, List<double[]>> samples = new LinkedHashMap<>();
    configurations.keySet().forEach(k -> samples.put(k, new ArrayList<>()));
    for (int round = 0; round < rounds + DISCARDED_ROUNDS; round++) {
      for (Map.Entry<String, List<String>> c : configurations.entrySet()) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(c.getValue());
        cmd.add("-cp");
        cmd.add(probe.toString());
        cmd.add(StartupProbe.class.getName());
        double[] times = launch(cmd);
        if (round >= DISCARDED_ROUNDS) {
          samples.get(c.getKey()).add(times);
        }
      }
    }
    List<Figure> out = new ArrayList<>();
    samples.forEach(
        (name, list) ->
            out.add(new Figure(name, median(list, 0), median(list, 1), median(list, 2))));
    return out;
  }

  /**
   * How long after {@code premain} began Vigil's background build had its instrumentation ready
   * (median of {@code runs} lingering launches with {@code -Dvigil.debug.startup=true}), or -1 when
   * it did not say.
   */
  static double vigilReadyMs(String java, List<String> vigilOptions, int runs, Path work)
      throws Exception {
    Path probe = probeClassDir(work);
    List<double[]> ready = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      cmd.add("-Dvigil.debug.startup=true");
      cmd.addAll(vigilOptions);
      cmd.addAll(List.of("-cp", probe.toString(), StartupProbe.class.getName(), "linger"));
      Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      Matcher m = READY.matcher(err);
      if (m.find()) {
        ready.add(new double[] {Double.parseDouble(m.group(1))});
      }
    }
    return ready.isEmpty() ? -1 : median(ready, 0);
  }

  /**
   * Median milliseconds, over {@code runs} launches of {@link QueueAlone} in a JVM of its own with
   * no agent, from its {@code main} to its one excerpt appended and the queue closed.
   */
  static double queueAloneMs(String java, List<String> chronicleOptions, int runs, Path work)
      throws Exception {
    String classPath = queueAloneClassDir(work).toString();
    List<double[]> times = new ArrayList<>();
    for (int i = 0; i < runs; i++) {
      List<String> cmd = new ArrayList<>();
      cmd.add(java);
      cmd.addAll(chronicleOptions);
      cmd.addAll(
          List.of(
              "-cp",
              classPath,
              QueueAlone.class.getName(),
              work.resolve("queue-alone-" + i).toString()));
      double[] t = launch(cmd);
      times.add(new double[] {t[1] - t[0]});
    }
    return median(times, 0);
  }

  private static final Pattern READY =
      Pattern.compile("instrumentation ready (\\d+) ms after premain began");

  private static double[] launch(List<String> cmd) throws Exception {
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String first;
    String second;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      first = r.readLine();
      second = r.readLine();
      while (r.readLine() != null) {
        // drain
      }
    }
    int exit = p.waitFor();
    long end = System.nanoTime();
    if (exit != 0 || first == null || second == null) {
      throw new IllegalStateException(
          "start-up probe failed (exit " + exit + "): " + String.join(" ", cmd));
    }
    long atMain = Long.parseLong(first.trim());
    long answered = Long.parseLong(second.trim());
    return new double[] {(atMain - start) / 1e6, (answered - start) / 1e6, (end - start) / 1e6};
  }

  /**
   * How many launches the measurement makes of each configuration (the discarded ones included).
   */
  static int launches(int rounds) {
    return rounds + DISCARDED_ROUNDS;
  }

  /**
   * The probe and its tool alone in a directory, so that every configuration starts from the same
   * tiny class path.
   */
  private static Path probeClassDir(Path work) throws IOException {
    Path dir = Files.createDirectories(work.resolve("startup-probe"));
    for (Class<?> c : List.of(StartupProbe.class, StartupTool.class)) {
      String resource = c.getName().replace('.', '/') + ".class";
      Path target = dir.resolve(resource);
      Files.createDirectories(target.getParent());
      try (InputStream in = c.getClassLoader().getResourceAsStream(resource)) {
        Files.write(target, in.readAllBytes());
      }
    }
    return dir;
  }

  /**
   * What {@link QueueAlone} needs, copied out of this benchmark's jar into a directory: Chronicle
   * and the event module. Read from the whole jar, a class path of tens of megabytes, Chronicle's
   * classes took about half as long again to load, which no agent pays.
   */
  private static Path queueAloneClassDir(Path work) throws Exception {
    Path dir = Files.createDirectories(work.resolve("queue-alone-classes"));
    Path jar =
        Path.of(QueueAlone.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    String probe = QueueAlone.class.getName().replace('.', '/') + ".class";
    try (ZipFile zip = new ZipFile(jar.toFile())) {
      for (ZipEntry e : Collections.list(zip.entries())) {
        String name = e.getName();
        boolean wanted =
            name.equals(probe)
                || name.startsWith("net/openhft/")
                || name.startsWith("org/slf4j/")
                || (name.startsWith("dev/vigil/observe/")
                    && name.indexOf('/', "dev/vigil/observe/".length()) < 0);
        if (wanted && !e.isDirectory()) {
          Path target = dir.resolve(name);
          Files.createDirectories(target.getParent());
          try (InputStream in = zip.getInputStream(e)) {
            Files.write(target, in.readAllBytes());
          }
        }
      }
    }
    return dir;
  }

  private static double median(List<double[]> list, int index) {
    double[] v = list.stream().mapToDouble(a -> a[index]).sorted().toArray();
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }
}
