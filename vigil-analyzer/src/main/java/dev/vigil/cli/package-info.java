/**
 * The analyzer's command line (docs/COMMANDS.md): one class per command, a shared base with exit
 * codes 0/1/2.
 */
package dev.vigil.cli;
