/**
 * The diagnosis layer (docs/DESIGN.md#roses-buds-and-thorns): Roses, Buds and Thorns over the
 * EmoBank, and what to change.
 */
package dev.vigil.diagnose;
