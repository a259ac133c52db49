package dev.vigil.report;

import dev.vigil.adapt.code.Check;
import dev.vigil.adapt.code.Proposal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * One code proposal as {@code report.html} shows it: its strategy and checks, its diff colored line
 * by line and its PR note (at most {@value #MAX_NOTE_CHARS} characters), both read back from {@code
 * OUT/proposals/}.
 *
 * @param strategy the strategy's name
 * @param score its score, two decimals
 * @param written whether the diff was written (or dropped)
 * @param files the files it changes
 * @param checks its checks, {@code name: outcome (detail)}
 * @param changes what it changes, one line each
 * @param dropped why it was dropped, or empty
 * @param apply the command that applies it, or empty
 * @param diff the diff's lines, empty when dropped
 * @param prNote the PR note, empty when dropped
 */
record ProposalView(
    String strategy,
    String score,
    boolean written,
    List<String> files,
    List<String> checks,
    List<String> changes,
    String dropped,
    String apply,
    List<DiffLines.Line> diff,
    String prNote) {
  /** Characters of a PR note shown. */
  static final int MAX_NOTE_CHARS = 40_000;

  static ProposalView of(Proposal p) {
    List<String> checks = p.checks().stream().map(ProposalView::check).toList();
    String score = String.format(Locale.ROOT, "%.2f", p.score());
    if (!p.isWritten()) {
      return new ProposalView(
          p.strategy(),
          score,
          false,
          p.files(),
          checks,
          p.changes(),
          p.droppedReason(),
          "",
          List.of(),
          "");
    }
    return new ProposalView(
        p.strategy(),
        score,
        true,
        p.files(),
        checks,
        p.changes(),
        "",
        p.applyCommand(),
        DiffLines.ofFile(p.diff()),
        note(p));
  }

  private static String check(Check c) {
    return c.name() + ": " + c.outcome().name().toLowerCase(Locale.ROOT) + " (" + c.detail() + ")";
  }

  private static String note(Proposal p) {
    try {
      String note = Files.readString(p.pr(), StandardCharsets.UTF_8);
      return note.length() <= MAX_NOTE_CHARS ? note : note.substring(0, MAX_NOTE_CHARS) + "\n…";
    } catch (IOException | RuntimeException e) {
      return "(" + p.pr() + " could not be read: " + e.getMessage() + ")";
    }
  }
}
