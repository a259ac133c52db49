/**
 * The pass's artifacts (SPEC section 4.10): {@code report.json}, {@code report.md}, {@code report.html} and
 * {@code audit.jsonl}.
 */
package dev.vigil.report;
