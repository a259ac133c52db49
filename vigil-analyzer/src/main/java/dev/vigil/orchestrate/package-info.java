/** The orchestration layer (SPEC section 4.8): one reflective pass, wired stage by stage. */
package dev.vigil.orchestrate;
