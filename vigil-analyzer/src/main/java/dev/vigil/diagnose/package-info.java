/** The diagnosis layer (SPEC section 4.5): Roses, Buds and Thorns over the EmoBank, and what to change. */
package dev.vigil.diagnose;
