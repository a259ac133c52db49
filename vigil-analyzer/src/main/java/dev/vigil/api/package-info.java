/**
 * Vigil as a library (docs/LIBRARY.md): {@link dev.vigil.api.Analyzer}, the facade that {@code
 * run}, {@code watch} and the LLM's tools go through, {@link dev.vigil.api.EventDetector} for a
 * detector of your own, and {@link dev.vigil.api.Analysis} for what a pass found. Everything a user
 * needs starts here.
 */
package dev.vigil.api;
