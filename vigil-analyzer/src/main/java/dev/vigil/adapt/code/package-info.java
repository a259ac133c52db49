/**
 * Code proposals of the adaptation layer (docs/ADAPTATION.md#code-proposals): a hotspot scanner
 * over {@code --repo}, strategies that score the diagnosis' {@link dev.vigil.adapt.code.Evidence}
 * plus the hotspots and rewrite Java files, and {@link dev.vigil.adapt.code.CodeProposals}, which
 * turns each strategy's rewrite into a unified diff and a PR note after checking that the diff
 * applies and the patched code compiles, without ever writing into the repository.
 */
package dev.vigil.adapt.code;
