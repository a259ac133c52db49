package dev.vigil.observe.capture;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The table of instrumented methods. Registration happens while classes are transformed (rarely,
 * under a lock); lookup happens on every call (an array read).
 */
public final class Sites {
  private final Map<String, Site> byKey = new HashMap<>();
  private volatile Site[] table = new Site[64];
  private int size;

  /** The site with this id, or null. */
  public Site get(int id) {
    Site[] t = table;
    return id >= 0 && id < t.length ? t[id] : null;
  }

  /** Registers a method of no framework (the same method registered twice keeps its first id). */
  public Site register(
      Role role,
      String className,
      String method,
      String descriptor,
      List<String> paramNames,
      String toolName,
      String kind) {
    return register(role, null, className, method, descriptor, paramNames, toolName, kind);
  }

  /**
   * Registers a method of {@code framework}, or of none when it is null (a method registered twice
   * keeps its id).
   */
  public synchronized Site register(
      Role role,
      Framework framework,
      String className,
      String method,
      String descriptor,
      List<String> paramNames,
      String toolName,
      String kind) {
    String key = className + "#" + method + descriptor;
    Site existing = byKey.get(key);
    if (existing != null) {
      return existing;
    }
    Site site =
        new Site(size, role, className, method, List.copyOf(paramNames), toolName, kind, framework);
    Site[] t = table;
    if (size == t.length) {
      t = Arrays.copyOf(t, t.length * 2);
    } else {
      t = t.clone();
    }
    t[size++] = site;
    table = t;
    byKey.put(key, site);
    return site;
  }

  /** How many methods are instrumented. */
  public synchronized int size() {
    return size;
  }
}
