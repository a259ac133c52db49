/**
 * The pass's artifacts (docs/DESIGN.md#artifacts): {@code report.json}, {@code report.md}, {@code
 * report.html} and {@code audit.jsonl}.
 */
package dev.vigil.report;
