/**
 * The labelled corpus of {@code eval} (docs/EVAL.md): conversations with the shop agent and with
 * Robin, planted good and bad from a fixed seed, played by scripted stand-in models in child JVMs
 * under {@code -javaagent:vigil.jar}, exported to one JSONL file, with labels and a manifest of
 * what each session plants.
 */
package dev.vigil.demo.corpus;
