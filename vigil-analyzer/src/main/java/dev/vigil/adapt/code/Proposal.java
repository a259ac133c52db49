package dev.vigil.adapt.code;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * One strategy's proposal: written (a diff and a PR note in {@code OUT/proposals/}) or dropped
 * because a check failed.
 *
 * @param strategy the strategy's name
 * @param score its score for this pass
 * @param files the files the diff changes, relative to the repository
 * @param diff the diff's path, or null when dropped
 * @param pr the PR note's path, or null when dropped
 * @param applyCommand the command that applies the diff, or null when dropped
 * @param checks the verifications, in the order they ran
 * @param changes what the diff changes, one line each
 * @param droppedReason why it was not written, or null when written
 */
public record Proposal(
    String strategy,
    double score,
    List<String> files,
    Path diff,
    Path pr,
    String applyCommand,
    List<Check> checks,
    List<String> changes,
    String droppedReason) {

  /** Copies the lists. */
  public Proposal {
    files = List.copyOf(files);
    checks = List.copyOf(checks);
    changes = List.copyOf(changes);
  }

  /** A proposal written to disk. */
  public static Proposal written(
      String strategy,
      double score,
      List<String> files,
      Path diff,
      Path pr,
      String applyCommand,
      List<Check> checks,
      List<String> changes) {
    return new Proposal(strategy, score, files, diff, pr, applyCommand, checks, changes, null);
  }

  /** A proposal that failed a check and was not written. */
  public static Proposal dropped(
      String strategy,
      double score,
      List<String> files,
      List<Check> checks,
      List<String> changes,
      String reason) {
    return new Proposal(strategy, score, files, null, null, null, checks, changes, reason);
  }

  /** True when the diff and the PR note were written. */
  public boolean isWritten() {
    return droppedReason == null;
  }

  /** The command that reverts the applied diff. */
  public String rollbackCommand() {
    return applyCommand == null ? null : applyCommand.replaceFirst(" apply ", " apply -R ");
  }

  /** The proposal as report.json lists it. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("strategy", strategy);
    n.put("score", score);
    n.put("status", isWritten() ? "written" : "dropped");
    ArrayNode f = n.putArray("files");
    files.forEach(f::add);
    if (isWritten()) {
      n.put("diff", diff.toString());
      n.put("pr", pr.toString());
      n.put("apply", applyCommand);
      n.put("rollback", rollbackCommand());
    } else {
      n.put("dropped_reason", droppedReason);
    }
    ArrayNode c = n.putArray("checks");
    for (Check check : checks) {
      c.addObject()
          .put("name", check.name())
          .put("outcome", check.outcome().name().toLowerCase(Locale.ROOT))
          .put("detail", check.detail());
    }
    ArrayNode ch = n.putArray("changes");
    changes.forEach(ch::add);
    return n;
  }
}
