/**
 * The reflection layer's appraisal (SPEC section 4.2): each event, raw or derived, becomes an emotion with valence,
 * intensity and cause, by a small engine over a rules table that users can override.
 */
package dev.vigil.appraise;
