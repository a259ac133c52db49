/** Files the analyzer writes, replaced all at once: the lowest layer, used by every other. */
package dev.vigil.io;
