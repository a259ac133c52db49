package dev.vigil.cli;

import dev.vigil.api.AnalyzerBuilder;
import dev.vigil.orchestrate.llm.LlmConfig;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of a pass that {@code run} and {@code watch} share (a picocli mixin): where, how, and
 * with what.
 */
final class PassOptionsMixin {
  @Option(
      names = "--emobank",
      paramLabel = "DIR",
      defaultValue = ".vigil/emobank",
      description = "The EmoBank directory (default: ${DEFAULT-VALUE}).")
  Path emobank;

  @Option(
      names = "--prompt",
      paramLabel = "FILE",
      description =
          "The agent's prompt file, with marked core and adaptive sections; never modified: the new "
              + "prompt is written to --out/new_prompt.txt and every version is kept in --out/prompts/.")
  Path prompt;

  @Option(
      names = "--repo",
      paramLabel = "DIR",
      description =
          "The agent's source tree: scanned for hotspots; proposals are unified diffs in --out/proposals/, "
              + "checked with git apply --check and compiled; the tree itself is never written.")
  Path repo;

  @Option(
      names = "--repo-classpath",
      paramLabel = "PATHS",
      description =
          "Jars and directories the --repo sources compile against (path-separator list; a dir/* entry "
              + "means every jar in dir), so that patched files can be compile-checked.")
  String repoClasspath;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "output",
      description = "Where the artifacts go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(
      names = "--window-hours",
      paramLabel = "H",
      defaultValue = "24",
      description = "The window before now, in hours (default: ${DEFAULT-VALUE}).")
  double windowHours;

  @Option(
      names = "--limit",
      paramLabel = "N",
      defaultValue = "500",
      description = "Use at most the newest N events of the window (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(
      names = "--retention-hours",
      paramLabel = "H",
      defaultValue = "168",
      description =
          "EmoBank rows older than H hours before now are compacted into per-episode totals "
              + "(default: ${DEFAULT-VALUE}).")
  double retentionHours;

  @Mixin DiagnosisOptionsMixin diagnosis;

  @Option(
      names = "--llm",
      description =
          "Let the configured LLM drive the stages through its tools (VIGIL_LLM_BASE_URL, VIGIL_LLM_MODEL, "
              + "VIGIL_LLM_API_KEY); the deterministic path finishes whatever it leaves. The LLM also judges the turns "
              + "that wrote or claimed a write against the --prompt's instructions (detector judge).")
  boolean llm;

  @Option(
      names = "--llm-max-calls",
      paramLabel = "N",
      defaultValue = "12",
      description =
          "With --llm: the budget of tool calls, and of the judge's questions (default: "
              + "${DEFAULT-VALUE}).")
  int llmMaxCalls;

  @Option(
      names = "--llm-timeout-seconds",
      paramLabel = "S",
      defaultValue = "120",
      description =
          "With --llm: the wall-clock budget of the LLM's session, and of the judge's (default: "
              + "${DEFAULT-VALUE}).")
  double llmTimeoutSeconds;

  /**
   * These options on a builder; a bad value is a {@link BadInputException} naming the option.
   *
   * @param env the environment the LLM's configuration is read from
   */
  AnalyzerBuilder applyTo(AnalyzerBuilder b, Map<String, String> env) {
    if (windowHours <= 0) {
      throw new BadInputException("--window-hours must be positive, not " + windowHours);
    }
    if (retentionHours <= 0) {
      throw new BadInputException("--retention-hours must be positive, not " + retentionHours);
    }
    if (limit <= 0) {
      throw new BadInputException("--limit must be positive, not " + limit);
    }
    b.emobank(emobank)
        .prompt(prompt)
        .repo(repo)
        .repoClasspath(classpath())
        .out(out)
        .window(hours(windowHours))
        .limit(limit)
        .retention(hours(retentionHours));
    diagnosis.applyTo(b);
    try {
      if (llm) {
        b.llm(
            LlmConfig.from(
                env,
                System.getProperties(),
                llmMaxCalls,
                Duration.ofMillis(Math.round(llmTimeoutSeconds * 1000))));
      }
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    return b;
  }

  private List<Path> classpath() {
    List<Path> entries = new ArrayList<>();
    if (repoClasspath == null || repoClasspath.isBlank()) {
      return entries;
    }
    for (String entry : repoClasspath.split(File.pathSeparator, -1)) {
      if (entry.isBlank()) {
        continue;
      }
      if (entry.endsWith("*")) {
        Path dir = Path.of(entry.substring(0, entry.length() - 1));
        if (!Files.isDirectory(dir)) {
          throw new BadInputException("--repo-classpath: " + dir + " is not a directory");
        }
        try (var jars = Files.list(dir)) {
          jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(entries::add);
        } catch (IOException e) {
          throw new BadInputException(
              "--repo-classpath: " + dir + " cannot be listed: " + e.getMessage());
        }
      } else {
        Path p = Path.of(entry);
        if (!Files.exists(p)) {
          throw new BadInputException("--repo-classpath: " + p + " does not exist");
        }
        entries.add(p);
      }
    }
    return entries;
  }

  private static Duration hours(double h) {
    return Duration.ofNanos(Math.round(h * 3_600_000_000_000d));
  }
}
