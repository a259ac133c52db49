package dev.vigil.observe.capture;

import java.util.List;

/**
 * One instrumented method, described once when its class is transformed.
 *
 * @param id the number the woven calls pass to the recorder
 * @param role what the method is to Vigil
 * @param className the declaring class
 * @param method the method name
 * @param paramNames parameter names ({@code arg0}... when the class file has none)
 * @param toolName the tool name (annotation's {@code name}, else the method name); null for
 *     non-tool roles
 * @param kind the event kind of a call (null for non-tool roles)
 * @param framework the framework whose method it is, for roles other than {@link Role#TOOL}; else
 *     null
 */
public record Site(
    int id,
    Role role,
    String className,
    String method,
    List<String> paramNames,
    String toolName,
    String kind,
    Framework framework) {

  /** A site that belongs to no framework. */
  public Site(
      int id,
      Role role,
      String className,
      String method,
      List<String> paramNames,
      String toolName,
      String kind) {
    this(id, role, className, method, paramNames, toolName, kind, null);
  }
}
