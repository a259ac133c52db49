package dev.vigil.observe.writer;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.Snapshot;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a {@link Snapshot} (an object's JSON as Smile bytes) into an event's payload token by
 * token: what {@link ValueWriter} writes for its JSON tree (the values of secret names masked, the
 * patterns applied to every string), without making the tree. It bounds the characters of the
 * value's JSON as it goes (a string at most six a character, a number at most its longest text);
 * when the bound passes the size limit, or the snapshot is not an object or an array, it writes
 * nothing and {@link ValueWriter} takes the tree's way, which cuts the value exactly. Thread-safe.
 */
final class SnapshotValues {
  /** The longest texts of an int, a long, a float and a double (or a quoted NaN or infinity). */
  private static final int INT_CHARS = 11;

  private static final int LONG_CHARS = 20;
  private static final int FLOAT_CHARS = 17;
  private static final int DOUBLE_CHARS = 26;

  /** A bound beyond any size limit: the value is written the tree's way. */
  private static final long TOO_LONG = 1L << 32;

  /** Names whose secrecy is known, kept up to this many (names come again and again). */
  private static final int NAMES_KEPT = 4_096;

  private final Redaction redaction;
  private final int maxChars;
  private final ConcurrentHashMap<String, Boolean> secretNames = new ConcurrentHashMap<>();

  SnapshotValues(Redaction redaction, int maxChars) {
    this.redaction = redaction;
    this.maxChars = maxChars;
  }

  /**
   * Writes the snapshot; false, with nothing written, when it must be written the tree's way: its
   * JSON may be longer than the size limit, it is not an object or an array, or a token is one this
   * class does not write (binary).
   */
  boolean write(Snapshot snapshot, SmileOut out) {
    int mark = out.mark();
    try (JsonParser p = snapshot.parser()) {
      JsonToken first = p.nextToken();
      if ((first == JsonToken.START_OBJECT || first == JsonToken.START_ARRAY)
          && container(p, first, out) <= maxChars) {
        return true;
      }
    } catch (IOException | RuntimeException unexpected) {
      // the tree's way
    }
    out.rewind(mark);
    return false;
  }

  /**
   * Writes the object or array whose start token {@code p} is at; a bound of the characters of its
   * JSON, or {@link #TOO_LONG} when it passes the size limit or cannot be written this way.
   */
  private long container(JsonParser p, JsonToken start, SmileOut out) throws IOException {
    boolean object = start == JsonToken.START_OBJECT;
    if (object) {
      out.startObject();
    } else {
      out.startArray();
    }
    long json = 2; // the brackets
    int members = 0;
    for (JsonToken t = p.nextToken();
        t != JsonToken.END_OBJECT && t != JsonToken.END_ARRAY;
        t = p.nextToken()) {
      if (t == null) {
        return TOO_LONG;
      }
      members++;
      if (object) {
        String name = p.currentName();
        out.name(name);
        json += 6L * name.length() + 3; // quoted, and the colon
        t = p.nextToken();
        if (t == null) {
          return TOO_LONG;
        }
        if (isSecret(name)) {
          p.skipChildren();
          out.string(Redaction.MASK);
          json += Redaction.MASK.length() + 2;
        } else {
          json += value(p, t, out);
        }
      } else {
        json += value(p, t, out);
      }
      if (json > maxChars) {
        return TOO_LONG;
      }
    }
    if (object) {
      out.endObject();
    } else {
      out.endArray();
    }
    return members == 0 ? json : json + members - 1; // the commas
  }

  /** Writes the value at token {@code t}; a bound of the characters of its JSON. */
  private long value(JsonParser p, JsonToken t, SmileOut out) throws IOException {
    switch (t) {
      case START_OBJECT, START_ARRAY -> {
        return container(p, t, out);
      }
      case VALUE_STRING -> {
        String s = p.getText();
        if (!redaction.writeUnchanged(s, out)) {
          s = redaction.text(s);
          out.string(s);
        }
        return 6L * s.length() + 2;
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        return number(p, out);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        out.bool(t == JsonToken.VALUE_TRUE);
        return 5;
      }
      case VALUE_NULL -> {
        out.nullValue();
        return 4;
      }
      default -> {
        return TOO_LONG; // binary, or what Smile does not hold: the tree's way
      }
    }
  }

  /** A number, of the type the tree would hold for it (its JSON bound). */
  private static long number(JsonParser p, SmileOut out) throws IOException {
    switch (p.getNumberType()) {
      case INT -> {
        out.number(p.getIntValue());
        return INT_CHARS;
      }
      case LONG -> {
        out.number(p.getLongValue());
        return LONG_CHARS;
      }
      case FLOAT -> {
        out.number(p.getFloatValue());
        return FLOAT_CHARS;
      }
      case DOUBLE -> {
        out.number(p.getDoubleValue());
        return DOUBLE_CHARS;
      }
      case BIG_INTEGER -> {
        BigInteger v = p.getBigIntegerValue();
        out.number(v);
        return v.toString().length();
      }
      default -> {
        BigDecimal v = p.getDecimalValue();
        out.number(v);
        return v.toString().length();
      }
    }
  }

  private boolean isSecret(String name) {
    Boolean known = secretNames.get(name);
    if (known != null) {
      return known;
    }
    boolean secret = redaction.isSecretName(name);
    if (secretNames.size() < NAMES_KEPT) {
      secretNames.put(name, secret);
    }
    return secret;
  }
}
