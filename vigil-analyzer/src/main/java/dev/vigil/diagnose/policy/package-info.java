/**
 * Policy rules (docs/POLICIES.md): the user's preconditions on tool calls, written as CEL
 * expressions in the rules file and evaluated with Google's CEL for Java, each rule one detector
 * named {@code policy.<name>}.
 */
package dev.vigil.diagnose.policy;
