/** Several agents writing to one queue (issue 9): one EmoBank and one report directory per agent, a fleet summary. */
package dev.vigil.fleet;
