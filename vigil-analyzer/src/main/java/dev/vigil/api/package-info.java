/**
 * Vigil as a library (docs/LIBRARY.md): {@link dev.vigil.api.Analyzer}, the facade that {@code run},
 * {@code watch} and the LLM's tools go through. Everything a user needs starts here.
 */
package dev.vigil.api;
