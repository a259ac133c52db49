package dev.vigil.learn;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one session shows a model, before any scaling: each token (a word n-gram of a message, a
 * tool call's {@code tool:status}, a detector's finding, a count) with how often it occurs and
 * where: the turns and event refs it came from, the first {@value #MAX_SOURCES} of them, so that a
 * score can say which turn moved it.
 */
public final class Observations {
  /** How many places are kept per token to cite. */
  static final int MAX_SOURCES = 5;

  /**
   * Where a token occurred.
   *
   * @param turn the turn's id ({@code #2} when placed by position), or null
   * @param ref the event's ref (line number or {@code seq}), or -1 when none is known
   */
  public record Source(String turn, long ref) {}

  private final String session;
  private final Map<String, Integer> counts = new LinkedHashMap<>();
  private final Map<String, List<Source>> sources = new HashMap<>();

  /** An empty session. */
  public Observations(String session) {
    this.session = session;
  }

  /** The session's key. */
  public String session() {
    return session;
  }

  /** Counts one occurrence of a token at a place. */
  void add(String token, String turn, long ref) {
    // plain code, no lambdas or record equality: this runs for every token of a pass with a model,
    // mostly cold
    Integer n = counts.get(token);
    counts.put(token, n == null ? 1 : n + 1);
    List<Source> at = sources.get(token);
    if (at == null) {
      at = new ArrayList<>(2);
      sources.put(token, at);
    }
    if (at.size() < MAX_SOURCES && !holds(at, turn, ref)) {
      at.add(new Source(turn, ref));
    }
  }

  private static boolean holds(List<Source> at, String turn, long ref) {
    for (Source s : at) {
      if (s.ref() == ref && Objects.equals(s.turn(), turn)) {
        return true;
      }
    }
    return false;
  }

  /** Sets a count outright (the {@code n:} family). */
  void set(String token, int count) {
    counts.put(token, count);
  }

  /** Each token and how often it occurs, in the order first seen. */
  public Map<String, Integer> counts() {
    return Collections.unmodifiableMap(counts);
  }

  /** Where a token occurred, the first few places; empty for none. */
  public List<Source> sources(String token) {
    return sources.getOrDefault(token, List.of());
  }
}
