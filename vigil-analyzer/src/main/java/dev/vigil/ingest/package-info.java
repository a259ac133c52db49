/** The ingest layer (SPEC section 4.1): reading events from a Chronicle queue or a JSONL file. */
package dev.vigil.ingest;
