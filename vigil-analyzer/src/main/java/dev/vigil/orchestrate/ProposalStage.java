package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.code.ForeignDiff;
import dev.vigil.adapt.code.Proposal;
import dev.vigil.adapt.code.Strategy;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The default {@link CodeStage}: the strategies' proposals (docs/ADAPTATION.md#code-proposals) and,
 * when the LLM offered a diff that passed its checks, that diff as {@code LLM_patch_<ts>.diff} with
 * {@code LLM_PR_<ts>.md}, first.
 */
final class ProposalStage implements CodeStage {
  private final List<Strategy> strategies;

  ProposalStage(List<Strategy> strategies) {
    this.strategies = List.copyOf(strategies);
  }

  @Override
  public CodeOutcome propose(
      PassContext pass, Diagnosis diagnosis, List<Detection> detections, OfferedDiff llmDiff)
      throws IOException {
    PassOptions o = pass.options();
    CodeOutcome code =
        new CodeProposals(strategies, o.codeSettings())
            .run(o.repo(), EvidenceOf.pass(diagnosis, detections), o.out(), o.now());
    if (llmDiff == null) {
      return code;
    }
    ForeignDiff foreign = new ForeignDiff(o.codeSettings());
    ForeignDiff.Verdict verdict =
        new ForeignDiff.Verdict(true, llmDiff.files(), llmDiff.checks(), null);
    List<String> why = new ArrayList<>();
    diagnosis
        .topThorns()
        .forEach(t -> why.add("thorn `" + t.cause() + "`: " + t.thorns() + " thorns"));
    detections.stream().filter(Detection::fired).forEach(d -> why.add(d.summary()));
    Proposal llm =
        foreign.write(o.repo(), llmDiff.diff(), verdict, llmDiff.model(), why, o.out(), o.now());
    List<Proposal> proposals = new ArrayList<>(code.proposals());
    proposals.add(0, llm);
    List<String> notes = new ArrayList<>(code.notes());
    notes.add("llm: the model's diff passed its checks and was written to " + llm.diff());
    return CodeOutcome.of(notes, proposals);
  }
}
