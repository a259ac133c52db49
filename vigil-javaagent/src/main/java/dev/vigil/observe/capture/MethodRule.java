package dev.vigil.observe.capture;

import java.util.Set;

/**
 * Names a framework's methods that Vigil instruments, in plain strings, so that the start-up gate
 * can read it before Byte Buddy is loaded. A method matches when its declaring type is {@link
 * #type} (or a subtype of it, unless {@link #exactType}), lies under {@link #typePackage} when one
 * is given, and the method's name, parameter count, first parameter type and visibility fit.
 *
 * @param role what a matching method is to Vigil
 * @param type the type whose methods (or whose subtypes' methods) match
 * @param exactType true when only {@link #type} itself matches, not its subtypes
 * @param typePackage a prefix the declaring type's name must start with, or null for any
 * @param methods the method names
 * @param minParams the fewest parameters
 * @param maxParams the most parameters
 * @param firstParam the erased type of the first parameter, or null for any
 * @param publicOnly whether only public methods match
 */
public record MethodRule(
    Role role,
    String type,
    boolean exactType,
    String typePackage,
    Set<String> methods,
    int minParams,
    int maxParams,
    String firstParam,
    boolean publicOnly) {

  /** The methods {@code names} of {@code type} and its subtypes, of any shape. */
  public static MethodRule of(Role role, String type, String... names) {
    return new MethodRule(
        role, type, false, null, Set.of(names), 0, Integer.MAX_VALUE, null, false);
  }

  /** The same rule for methods with {@code min} to {@code max} parameters. */
  public MethodRule params(int min, int max) {
    return new MethodRule(
        role, type, exactType, typePackage, methods, min, max, firstParam, publicOnly);
  }

  /** The same rule for methods whose first parameter is of type {@code name}. */
  public MethodRule firstParam(String name) {
    return new MethodRule(
        role, type, exactType, typePackage, methods, minParams, maxParams, name, publicOnly);
  }

  /** The same rule for declaring types under {@code prefix} only. */
  public MethodRule inPackage(String prefix) {
    return new MethodRule(
        role, type, exactType, prefix, methods, minParams, maxParams, firstParam, publicOnly);
  }

  /** The same rule for {@link #type} itself only. */
  public MethodRule exact() {
    return new MethodRule(
        role, type, true, typePackage, methods, minParams, maxParams, firstParam, publicOnly);
  }

  /** The same rule for public methods only. */
  public MethodRule publicMethods() {
    return new MethodRule(
        role, type, exactType, typePackage, methods, minParams, maxParams, firstParam, true);
  }

  /**
   * Whether the methods of the type {@code name}, whose supertypes (itself included) are {@code
   * supers}, may match.
   */
  public boolean matchesType(String name, Set<String> supers) {
    if (exactType) {
      return name.equals(type);
    }
    return supers.contains(type) && (typePackage == null || name.startsWith(typePackage));
  }

  /**
   * Whether a method of a matching type fits: its name, parameter count, first parameter's type and
   * visibility.
   */
  public boolean matchesMethod(String name, int params, String firstParamType, boolean isPublic) {
    return methods.contains(name)
        && params >= minParams
        && params <= maxParams
        && (firstParam == null || firstParam.equals(firstParamType))
        && (isPublic || !publicOnly);
  }

  /**
   * Whether an application's own class that implements {@link #type} directly may hold a matching
   * method (the start-up gate lets such classes through): true for the frameworks' public entry
   * points, false for rules bound to one class or to the framework's own packages.
   */
  public boolean isEntryPoint() {
    return !exactType && typePackage == null;
  }
}
