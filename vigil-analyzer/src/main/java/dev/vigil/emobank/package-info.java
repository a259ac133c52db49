/**
 * The EmoBank (docs/DESIGN.md#the-emobank): the persistent, append-only affective memory with its
 * deposit policy, decay on read, snapshots, exactly-once checkpoint and retention.
 */
package dev.vigil.emobank;
