/**
 * The detector layer (docs/DETECTORS.md): soft failures that never throw, found in the window's
 * events and turned into derived events that the appraisal handles like any other.
 */
package dev.vigil.diagnose.detect;
