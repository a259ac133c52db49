package dev.vigil.observe.agent;

/**
 * What a calling thread hands to the writer thread: a finished tool call ({@link CapturedCall}) or one side of a
 * conversation's turn ({@link CapturedTurn}). The writer builds the event from it.
 */
sealed interface Captured permits CapturedCall, CapturedTurn {}
