/**
 * The EmoBank (SPEC section 4.3): the persistent, append-only affective memory with its deposit policy, decay on
 * read, snapshots, exactly-once checkpoint and retention.
 */
package dev.vigil.emobank;
