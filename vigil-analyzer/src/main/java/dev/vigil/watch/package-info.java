/**
 * {@code watch} (docs/COMMANDS.md#watch): tails the queue, deposits events as they arrive, and runs
 * a reflective pass when one of the user's triggers fires.
 */
package dev.vigil.watch;
