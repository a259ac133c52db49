package org.acme.meetings;

import java.time.Instant;

/** A planned meeting, in absolute time. */
public record Meeting(String title, Instant start, Instant end) {}
