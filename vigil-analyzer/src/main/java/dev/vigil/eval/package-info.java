/**
 * Measuring the diagnosis (docs/EVAL.md): one pass per labelled session through {@link
 * dev.vigil.api.Analyzer}, then the AUROC of its score with a bootstrap interval and each
 * detector's precision and recall.
 */
package dev.vigil.eval;
