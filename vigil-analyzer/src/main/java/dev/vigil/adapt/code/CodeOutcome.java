package dev.vigil.adapt.code;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * What the code stage of a pass did.
 *
 * @param status {@code proposed} (at least one proposal written), {@code none} (nothing called for,
 *     nothing to rewrite, or every proposal dropped) or {@code skipped} (no usable {@code --repo})
 * @param notes what the stage saw and decided, in words, for the report
 * @param proposals written and dropped proposals, highest score first
 */
public record CodeOutcome(Status status, List<String> notes, List<Proposal> proposals) {

  /** How the code stage ended. */
  public enum Status {
    /** At least one proposal was written. */
    PROPOSED,
    /** No proposal was written. */
    NONE,
    /** The stage did not run: no usable {@code --repo}. */
    SKIPPED;

    /** The lower-case name report.json uses. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Copies the lists. */
  public CodeOutcome {
    notes = List.copyOf(notes);
    proposals = List.copyOf(proposals);
  }

  /** The stage did not run, for the reason given. */
  public static CodeOutcome skipped(String note) {
    return new CodeOutcome(Status.SKIPPED, List.of(note), List.of());
  }

  /** The outcome of a stage that ran. */
  public static CodeOutcome of(List<String> notes, List<Proposal> proposals) {
    boolean any = proposals.stream().anyMatch(Proposal::isWritten);
    return new CodeOutcome(any ? Status.PROPOSED : Status.NONE, notes, proposals);
  }

  /** The proposals that were written. */
  public List<Proposal> written() {
    return proposals.stream().filter(Proposal::isWritten).toList();
  }

  /** {@code {status, notes, proposals}}, for report.json. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("status", status.label());
    ArrayNode ns = n.putArray("notes");
    notes.forEach(ns::add);
    n.set("proposals", proposalsJson());
    return n;
  }

  /** The proposals alone, as a JSON array. */
  public ArrayNode proposalsJson() {
    ArrayNode a = JsonNodeFactory.instance.arrayNode();
    proposals.forEach(p -> a.add(p.toJson()));
    return a;
  }
}
