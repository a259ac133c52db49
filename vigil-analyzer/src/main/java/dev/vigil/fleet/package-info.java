/**
 * Several agents writing to one queue (docs/COMMANDS.md#several-agents-one-queue-a-fleet): one
 * EmoBank and one report directory per agent, a fleet summary.
 */
package dev.vigil.fleet;
