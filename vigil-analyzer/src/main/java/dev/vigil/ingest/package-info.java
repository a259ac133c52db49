/**
 * The ingest layer (docs/DESIGN.md#the-window): reading events from a Chronicle queue or a JSONL
 * file.
 */
package dev.vigil.ingest;
