package dev.vigil.observe.capture;

import java.util.List;

/**
 * One instrumented method, described once when its class is transformed.
 *
 * @param id         the number the inlined advice passes to the recorder
 * @param role       what the method is to Vigil
 * @param className  the declaring class
 * @param method     the method name
 * @param paramNames parameter names ({@code arg0}... when the class file has none)
 * @param toolName   the tool name (annotation's {@code name}, else the method name); null for non-tool roles
 * @param kind       the event kind of a call (null for non-tool roles)
 */
public record Site(int id, Role role, String className, String method, List<String> paramNames, String toolName,
    String kind) {}
