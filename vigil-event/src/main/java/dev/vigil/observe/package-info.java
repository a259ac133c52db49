/**
 * The observation layer's contract (docs/DESIGN.md#the-event): the {@link dev.vigil.observe.Event}
 * record that the javaagent writes and the analyzer reads, with its JSON codec ({@link
 * dev.vigil.observe.EventJson}) and its Chronicle Queue codec ({@link
 * dev.vigil.observe.EventWire}).
 */
package dev.vigil.observe;
