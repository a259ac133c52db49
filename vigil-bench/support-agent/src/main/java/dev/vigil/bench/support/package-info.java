/**
 * The Spring Boot LangChain4j application of the start-up figure (docs/BENCHMARKS.md): a support
 * agent for a car rental's bookings, after LangChain4j's customer-support example, whose model is
 * the benchmark's loopback server.
 */
package dev.vigil.bench.support;
