package dev.vigil.observe.capture;

/**
 * What a calling thread hands to the writer thread: a finished tool call ({@link CapturedCall}) or
 * one side of a conversation's turn ({@link CapturedTurn}). The writer builds the event from it.
 */
public sealed interface Captured permits CapturedCall, CapturedTurn {}
