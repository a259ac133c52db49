package dev.vigil.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** Whether the analyzer jar has the {@code watch} command: its {@code --help} lists it among the commands. */
final class WatchProbe {
  private static final Pattern COMMAND = Pattern.compile("(?m)^\\s+watch\\b");

  private WatchProbe() {}

  static boolean available(String java, Path analyzerJar) throws Exception {
    Process p = new ProcessBuilder(List.of(java, "-jar", analyzerJar.toString(), "--help"))
        .redirectErrorStream(true).start();
    String help = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(1, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return false;
    }
    return COMMAND.matcher(help).find();
  }
}
