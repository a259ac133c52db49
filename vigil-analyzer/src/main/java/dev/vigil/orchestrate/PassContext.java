package dev.vigil.orchestrate;

import java.time.Clock;

/**
 * What every stage of one pass may read and nothing changes: the options, the time source, and the
 * pass's number.
 *
 * @param options the pass's options
 * @param clock the one time source of the pass (when prompt versions are kept; budgets)
 * @param passNumber this pass's number in {@code --out} (one more than the passes already audited
 *     there)
 */
public record PassContext(PassOptions options, Clock clock, long passNumber) {}
