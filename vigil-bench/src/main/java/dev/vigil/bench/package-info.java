/** JMH benchmarks of Vigil's hot paths (SPEC section 8); run them as docs/BENCHMARKS.md says. */
package dev.vigil.bench;
