package dev.vigil.observe.capture;

/**
 * Everything the calling thread hands to the writer thread about one finished tool call. Values are
 * snapshots (see {@link ValueCapture}); the writer builds the event from them.
 *
 * @param site the tool method (or the framework entry point when no tool method ran beneath it)
 * @param startNanos {@link System#nanoTime()} when the call began
 * @param endNanos {@link System#nanoTime()} when it returned or threw
 * @param thread name of the calling thread
 * @param args argument snapshots in parameter order, or null when not captured
 * @param result the snapshot of the return value
 * @param thrown what the call threw, or null
 * @param turn the turn id, or null
 * @param session the conversation the turn belongs to, or null
 * @param callId the framework's tool-call id, or null
 * @param toolName the tool name the framework used, or null
 * @param frameworkArgs the framework's raw JSON arguments when no tool method ran beneath it, else
 *     null
 * @param errorResult the framework reported an error result (LangChain4j's {@code isError()})
 * @param errorText the framework's text for that error result, or null
 */
// an array on purpose: a hand-off from the calling thread to the writer, read once and never
// compared
@SuppressWarnings("ArrayRecordComponent")
public record CapturedCall(
    Site site,
    long startNanos,
    long endNanos,
    String thread,
    Object[] args,
    Object result,
    Throwable thrown,
    String turn,
    String session,
    String callId,
    String toolName,
    String frameworkArgs,
    boolean errorResult,
    String errorText)
    implements Captured {}
