package dev.vigil.cli;

import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.adapt.prompt.PromptRollback;
import dev.vigil.adapt.prompt.PromptVersion;
import dev.vigil.adapt.prompt.PromptVersions;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rollback}: writes a kept prompt version back as {@code OUT/new_prompt.txt}
 * (docs/COMMANDS.md#rollback).
 */
@Command(
    name = "rollback",
    header = "Writes a kept prompt version back as OUT/new_prompt.txt.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes a kept prompt version (OUT/prompts/) back as OUT/new_prompt.txt, for you to apply to the agent.",
      "The version's SHA-256 is checked against OUT/prompts/index.jsonl first. Your prompt file is not touched.",
      "Exit 0 done, 2 bad usage or input (unknown or ambiguous version, altered file, no versions)."
    })
final class RollbackCommand extends VigilCommand {
  /** What to do: restore one version, or list them. */
  static final class Action {
    @Option(
        names = "--to",
        paramLabel = "N|SHA",
        description =
            "The version: its number, or a prefix of at least 6 hex digits of its SHA-256.")
    String to;

    @Option(
        names = "--list",
        description = "List the kept versions instead (* marks what new_prompt.txt holds).")
    boolean list;
  }

  @Option(
      names = "--out",
      required = true,
      paramLabel = "DIR",
      description = "The --out directory of the passes that kept the versions.")
  Path out;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Action action;

  @Override
  public Integer call() throws IOException {
    if (!Files.isDirectory(out)) {
      throw new BadInputException(
          "--out " + out + " is not a directory; give the --out of an earlier run");
    }
    try {
      if (action.list) {
        return list();
      }
      PromptRollback r = PromptRollback.to(out, action.to);
      PromptVersion v = r.version();
      if (r.alreadyThere()) {
        out()
            .println(
                r.newPrompt()
                    + " already holds version "
                    + v.number()
                    + " (sha256 "
                    + v.sha256()
                    + "); nothing written");
      } else {
        out()
            .println(
                "rolled back: wrote version "
                    + v.number()
                    + " ("
                    + v.file()
                    + ", sha256 "
                    + v.sha256()
                    + ", "
                    + v.bytes()
                    + " bytes, "
                    + v.source()
                    + ") to "
                    + r.newPrompt()
                    + (r.previousSha256() == null ? "" : "; it held sha256 " + r.previousSha256()));
        out()
            .println(
                "apply it to your agent's prompt yourself; Vigil never edits the agent's files");
      }
      out().flush();
      return EXIT_OK;
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--out " + out + ": " + e.getMessage(), e);
    }
  }

  private int list() throws IOException {
    PromptVersions versions = PromptVersions.open(out);
    List<PromptVersion> all = versions.versions();
    if (all.isEmpty()) {
      throw new IllegalArgumentException(
          "no prompt versions are kept in " + versions.dir() + "; a run with --prompt keeps them");
    }
    Path newPrompt = out.resolve(PromptAdaptation.NEW_PROMPT);
    String current =
        Files.isRegularFile(newPrompt) ? Artifacts.sha256(Files.readAllBytes(newPrompt)) : "";
    for (PromptVersion v : all) {
      out().println((v.sha256().equals(current) ? "* " : "  ") + v.describe());
    }
    out().flush();
    return EXIT_OK;
  }
}
