/**
 * The before/after demo (demo-robin/README.md): Robin runs under {@code -javaagent:vigil.jar}
 * against a reminder backend, Vigil analyzes the run and proposes a prompt and a diff, a patched
 * copy of Robin runs the same requests, and the paper's Table 1 is measured from both runs' events
 * and reports.
 */
package dev.vigil.demo;
