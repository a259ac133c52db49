/**
 * The orchestration layer (docs/STAGES.md, docs/STAGES.md#self-repair): one reflective pass. {@link
 * dev.vigil.orchestrate.PassSession} walks the {@link dev.vigil.orchestrate.Stages} (one-method
 * interfaces) through the stage machine under the guard of self-repair, handing immutable records
 * from stage to stage: {@link dev.vigil.orchestrate.Window}, {@link
 * dev.vigil.orchestrate.BankUpdate}, the diagnosis, the prompt outcome and the code outcome,
 * gathered in a {@link dev.vigil.orchestrate.PassResult}. Users run passes through {@code
 * dev.vigil.api.Analyzer}.
 */
package dev.vigil.orchestrate;
