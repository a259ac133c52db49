package dev.vigil.diagnose.detect;

import dev.vigil.observe.Event;

/**
 * An event a detector derived from the window, with the identity of the event it is about, so that
 * a later pass over an overlapping window derives it again under the same identity and it is
 * deposited only once.
 *
 * @param event the derived event
 * @param sourceIdentity the identity of the window event it was derived from
 */
public record Derived(Event event, long sourceIdentity) {}
