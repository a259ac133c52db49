/**
 * The reflection layer's appraisal (docs/DESIGN.md#appraisal): each event, raw or derived, becomes
 * an emotion with valence, intensity and cause, by a small engine over a rules table that users can
 * override.
 */
package dev.vigil.appraise;
