package dev.vigil.observe.capture;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.agent.Stderr;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Takes a snapshot of an argument or a return value on the calling thread, so that what the writer
 * thread records later is what the call saw. Immutable values (strings, boxed numbers, booleans,
 * records that can never change: {@link RecordShape}) are kept as they are; enums and JDK value
 * types become their text; a small map, collection, plain bean or record holding only such values
 * is copied ({@link Copy}); anything else becomes the JSON of its fields, as Smile bytes ({@link
 * Snapshot}; getters are never called, so no application code runs), with JDK value types at any
 * depth written as at the top ({@link CaptureMapper}), and when that fails, its {@code toString()}.
 * Whatever an object does, this class returns: the worst case is an {@link Unreadable} placeholder.
 */
public final class ValueCapture {
  /** A value Vigil could not read; recorded as a short text naming its type and why. */
  public record Unreadable(String type, String why) {
    /** The text recorded in the event. */
    public String text() {
      return "<unreadable " + type + ": " + why + ">";
    }
  }

  private static final int MAX_DEPTH = CaptureMapper.MAX_DEPTH;

  private volatile ObjectMapper mapper;

  /**
   * Vigil's own Jackson mapper (never the application's), made on first use to keep start-up short.
   */
  private ObjectMapper mapper() {
    ObjectMapper m = mapper;
    if (m == null) {
      m = CaptureMapper.create();
      mapper = m;
    }
    return m;
  }

  private volatile SnapshotGenerators generators;

  /** The pooled generators of snapshots, on the mapper ({@link SnapshotGenerators}). */
  private SnapshotGenerators generators() {
    SnapshotGenerators g = generators;
    if (g == null) {
      g = new SnapshotGenerators(mapper());
      generators = g;
    }
    return g;
  }

  /** A value shaped like a tool's result: what {@link #prepare} captures. */
  private record Sample(
      String text, LocalDate day, List<Integer> numbers, Map<String, Optional<BigDecimal>> more) {}

  /**
   * Makes the mapper and a pooled generator and captures a sample value, so that the first call
   * whose argument or result is an object finds what capturing it needs loaded and made; never
   * throws. The tree a snapshot becomes only when it must be cut is not made ahead.
   */
  void prepare() {
    try {
      generators()
          .write(
              new Sample(
                  "a",
                  LocalDate.of(2026, 1, 1),
                  List.of(1),
                  Map.of("k", Optional.of(BigDecimal.ONE))));
    } catch (Throwable ignored) {
      // only a head start: the first call makes the mapper itself
    }
  }

  /**
   * The snapshot of {@code value}: null, a {@link String}, a JDK {@link Number}, a {@link Boolean},
   * a record with a {@link RecordShape} (kept as it is: it cannot change), a {@link Copy}, a {@link
   * Snapshot} or an {@link Unreadable}.
   *
   * @param site the method the value belongs to, named in the line printed when it cannot be read
   *     as JSON
   * @param index the parameter index, or -1 for the return value
   */
  public Object capture(Object value, Site site, int index) {
    if (value == null || value instanceof String) {
      return value;
    }
    Handling handling = HANDLINGS.get(value.getClass());
    return switch (handling.treatment()) {
      case KEEP -> value; // immutable (a record: the writer encodes it itself, RecordValues)
      case TEXT -> value.toString();
      case NAME -> ((Enum<?>) value).name();
      case TREE -> {
        Copy copy = Copy.of(value, handling.copy());
        yield copy != null ? copy : tree(value, site, index);
      }
    };
  }

  /**
   * What {@link #capture} does with a value of a class, and for a {@link Treatment#TREE} what
   * {@link Copy} does with it: decided once per class and found with one look-up a call.
   */
  private record Handling(Treatment treatment, Copy.Top copy) {}

  private static final ClassValue<Handling> HANDLINGS =
      new ClassValue<>() {
        @Override
        protected Handling computeValue(Class<?> type) {
          Treatment t = treatment(type);
          return new Handling(t, t == Treatment.TREE ? Copy.top(type) : null);
        }
      };

  /** What {@link #capture} does with a value of a class, decided once per class. */
  private enum Treatment {
    KEEP,
    TEXT,
    NAME,
    TREE
  }

  private static Treatment treatment(Class<?> type) {
    for (Class<?> kept :
        List.of(
            Boolean.class,
            Integer.class,
            Long.class,
            Double.class,
            Float.class,
            Short.class,
            Byte.class,
            BigInteger.class,
            BigDecimal.class)) {
      if (kept.isAssignableFrom(type)) {
        return Treatment.KEEP;
      }
    }
    if (Character.class.isAssignableFrom(type)
        || CharSequence.class.isAssignableFrom(type)
        || UUID.class.isAssignableFrom(type)
        || (CaptureMapper.isTimeValue(type) && !Enum.class.isAssignableFrom(type))) {
      return Treatment.TEXT;
    }
    if (Enum.class.isAssignableFrom(type)) {
      return Treatment.NAME;
    }
    return RecordShape.of(type) != null ? Treatment.KEEP : Treatment.TREE;
  }

  /**
   * The {@link Snapshot} of {@code value} (any object but the immutable values {@link #capture}
   * keeps as they are), or what stands for it when it cannot be read as JSON.
   */
  public Object tree(Object value, Site site, int index) {
    byte[] smile;
    ObjectMapper m;
    try {
      // Smile bytes rather than valueToTree: only a real generator enforces the nesting limit,
      // which is what stops a cyclic graph long before the stack overflows (CaptureMapper); and
      // the bytes are all the calling thread pays for, the writer thread reads them (Snapshot)
      m = mapper();
      smile = generators().write(value);
    } catch (Throwable jsonFailure) {
      if (isCycleOrTooDeep(jsonFailure)) {
        // never call toString here: on a cyclic graph it would recurse until the stack overflows
        Stderr.warn(
            "capture",
            describe(site, index)
                + " ("
                + value.getClass().getName()
                + ") is cyclic or nested deeper than "
                + MAX_DEPTH
                + " levels; recorded as <unreadable>");
        return new Unreadable(
            value.getClass().getName(), "cyclic or nested deeper than " + MAX_DEPTH + " levels");
      }
      return fallback(value, describe(site, index), jsonFailure);
    }
    if (Snapshot.isEmptyObject(smile) && !(value instanceof Map<?, ?>)) {
      return viaToString(value, site, index);
    }
    return new Snapshot(smile, m);
  }

  /** An object without readable fields is recorded by its {@code toString()}, if that works. */
  private static Object viaToString(Object value, Site site, int index) {
    try {
      return String.valueOf(value);
    } catch (Throwable t) {
      Stderr.warn(
          "capture",
          describe(site, index)
              + " ("
              + value.getClass().getName()
              + ") has no fields to record "
              + "and its toString() threw "
              + t.getClass().getName()
              + "; recorded as <unreadable>");
      return new Unreadable(value.getClass().getName(), "toString threw " + t.getClass().getName());
    }
  }

  private static boolean isCycleOrTooDeep(Throwable t) {
    for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
      String message = String.valueOf(c.getMessage());
      if (c instanceof StreamConstraintsException
          || c instanceof StackOverflowError
          || message.contains("self-reference")
          || message.contains("nesting depth")) {
        return true;
      }
    }
    return false;
  }

  /** Names a value in a line on stderr: {@code argument 'when' of demo.Tools#remind}. */
  public static String describe(Site site, int index) {
    if (site == null) {
      return "a captured value";
    }
    String method = site.className() + "#" + site.method();
    if (index < 0) {
      return "the return value of " + method;
    }
    String name = index < site.paramNames().size() ? site.paramNames().get(index) : "arg" + index;
    return "argument '" + name + "' of " + method;
  }

  private Object fallback(Object value, String where, Throwable jsonFailure) {
    String type = value.getClass().getName();
    String cause = jsonFailure.getClass().getSimpleName();
    try {
      String text = String.valueOf(value);
      Stderr.warn(
          "capture",
          where
              + " ("
              + type
              + ") is not readable as JSON ("
              + cause
              + "); its toString() is recorded instead");
      return text;
    } catch (Throwable toStringFailure) {
      Stderr.warn(
          "capture",
          where
              + " ("
              + type
              + ") is not readable as JSON ("
              + cause
              + ") and its toString() threw "
              + toStringFailure.getClass().getName()
              + "; recorded as <unreadable>");
      return new Unreadable(type, "toString threw " + toStringFailure.getClass().getName());
    }
  }
}
