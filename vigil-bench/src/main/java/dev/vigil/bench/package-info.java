/**
 * JMH benchmarks of Vigil's hot paths (docs/BENCHMARKS.md); run them as docs/BENCHMARKS.md says.
 */
package dev.vigil.bench;
