package dev.vigil.orchestrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.emobank.BankCorruptException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.WrongMethodTypeException;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * A fault inside Vigil itself, recorded instead of a crash (docs/STAGES.md#self-repair, the paper's
 * meta-procedural self-repair): which stage failed, with what, where, and what to change.
 *
 * @param type {@code internal.schema_conflict} for a mapping or type mismatch, {@code internal.io}
 *     for I/O, otherwise {@code internal.<simple class name>}
 * @param stage the stage the pass was trying to reach
 * @param step the step (tool) that failed
 * @param exception the exception's class
 * @param message its message
 * @param frames the top of its stack, innermost first
 * @param suggestion the call site (class, method, file, line) and the remedy, in words
 */
public record InternalThorn(
    String type,
    String stage,
    String step,
    String exception,
    String message,
    List<String> frames,
    String suggestion) {

  /** Frames kept per thorn. */
  static final int MAX_FRAMES = 12;

  /** The type of a mapping, number, cast or signature mismatch. */
  public static final String SCHEMA_CONFLICT = "internal.schema_conflict";

  /** The type of an I/O failure. */
  public static final String IO = "internal.io";

  /** Copies the frames. */
  public InternalThorn {
    frames = List.copyOf(frames);
  }

  /** The thorn for {@code failure}, thrown by {@code step}. */
  public static InternalThorn of(Step step, Throwable failure) {
    String type = typeOf(failure);
    StackTraceElement site = callSite(failure);
    List<String> frames = new ArrayList<>();
    for (StackTraceElement f : failure.getStackTrace()) {
      if (frames.size() == MAX_FRAMES) {
        break;
      }
      frames.add(f.toString());
    }
    String message = String.valueOf(failure.getMessage());
    return new InternalThorn(
        type,
        step.to().label(),
        step.tool(),
        failure.getClass().getName(),
        message,
        frames,
        suggestion(type, failure, site));
  }

  /** Classifies a failure by the first recognisable throwable in its cause chain. */
  static String typeOf(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (isSchemaConflict(t)) {
        return SCHEMA_CONFLICT;
      }
    }
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof IOException || t instanceof UncheckedIOException) {
        return IO;
      }
    }
    return "internal." + failure.getClass().getSimpleName();
  }

  private static boolean isSchemaConflict(Throwable t) {
    return t instanceof JsonProcessingException
        || t instanceof NumberFormatException
        || t instanceof ClassCastException
        || t instanceof DateTimeParseException
        || t instanceof ArrayStoreException
        || t instanceof WrongMethodTypeException
        || t instanceof IncompatibleClassChangeError
        || (t instanceof BankCorruptException b && b.line() > 0);
  }

  /**
   * The innermost frame of Vigil's own code, where the remedy belongs; the top frame when there is
   * none.
   */
  static StackTraceElement callSite(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    for (Throwable t : new Throwable[] {root, failure}) {
      for (StackTraceElement f : t.getStackTrace()) {
        if (f.getClassName().startsWith("dev.vigil.")) {
          return f;
        }
      }
    }
    StackTraceElement[] top = failure.getStackTrace();
    return top.length == 0 ? null : top[0];
  }

  private static String suggestion(String type, Throwable failure, StackTraceElement site) {
    String at =
        site == null
            ? "an unknown call site (no stack trace)"
            : site.getClassName()
                + "."
                + site.getMethodName()
                + " ("
                + site.getFileName()
                + ":"
                + site.getLineNumber()
                + ")";
    BankCorruptException bank = find(failure, BankCorruptException.class);
    if (bank != null) {
      return "The EmoBank file "
          + bank.file()
          + (bank.line() > 0 ? " line " + bank.line() : "")
          + " is not what Vigil wrote (read at "
          + at
          + "); nothing in the bank was written. Restore that file from "
          + "a backup or remove the offending "
          + (bank.line() > 0 ? "line" : "file")
          + ", then run again.";
    }
    return switch (type) {
      case SCHEMA_CONFLICT ->
          "At "
              + at
              + ": the data there does not have the shape the code expects ("
              + failure.getClass().getSimpleName()
              + "). Make the type or the mapping at that line agree with the input, "
              + "or validate the input before it is mapped.";
      case IO ->
          "At "
              + at
              + ": an I/O operation failed ("
              + failure.getMessage()
              + "). Check that the path exists, "
              + "that this user may read and write it, and that the disk has room.";
      default ->
          "At "
              + at
              + ": "
              + failure.getClass().getSimpleName()
              + " was thrown. Fix the cause there; until "
              + "then each pass falls back to a provisional diagnosis.";
    };
  }

  private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
  }

  /** Two thorns are the same fault when type and stage agree. */
  public String key() {
    return type + "@" + stage;
  }

  /** The thorn as report.json's {@code internal_thorns} lists it. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("type", type);
    n.put("stage", stage);
    n.put("step", step);
    n.put("exception", exception);
    n.put("message", message);
    ArrayNode f = n.putArray("frames");
    frames.forEach(f::add);
    n.put("suggestion", suggestion);
    return n;
  }

  /** Reads a thorn written by {@link #toJson()}. */
  public static InternalThorn fromJson(JsonNode n) {
    List<String> frames = new ArrayList<>();
    n.path("frames").forEach(f -> frames.add(f.asText()));
    return new InternalThorn(
        n.path("type").asText(),
        n.path("stage").asText(),
        n.path("step").asText(),
        n.path("exception").asText(),
        n.path("message").asText(),
        frames,
        n.path("suggestion").asText());
  }
}
