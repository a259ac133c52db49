package dev.vigil.observe.writer;

import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.Copy;
import dev.vigil.observe.capture.RecordShape;

/**
 * Writes a {@link Copy} (a small map, collection or bean copied on the calling thread) into an
 * event's payload: what {@link ValueWriter} writes for the JSON tree Vigil's mapper would make of
 * the object (the values of secret names masked, the patterns applied to every string), without
 * making the tree. As {@link RecordValues} does for a record, it bounds the characters of the JSON
 * as it goes, counts them exactly when the bound passes the size limit, and writes nothing when the
 * JSON is longer than the limit: {@link ValueWriter} then takes the tree's way, which cuts it.
 * Thread-safe.
 */
final class CopyValues {
  /** A name whose secrecy is known: its text, bytes and JSON length (final fields: shared). */
  private static final class Name {
    final String text;
    final byte[] bytes;
    final boolean secret;
    final long jsonLength;

    Name(String text, byte[] bytes, boolean secret, long jsonLength) {
      this.text = text;
      this.bytes = bytes;
      this.secret = secret;
      this.jsonLength = jsonLength;
    }
  }

  /** Names whose secrecy is known, a slot by their hash (a slot holds the last one seen). */
  private static final int NAME_SLOTS = 256;

  private final Redaction redaction;
  private final int maxChars;
  private final RecordValues records;
  private final Name[] names = new Name[NAME_SLOTS];

  CopyValues(Redaction redaction, int maxChars, RecordValues records) {
    this.redaction = redaction;
    this.maxChars = maxChars;
    this.records = records;
  }

  /**
   * Writes {@code copy}; false, with nothing written, when its JSON is longer than the size limit
   * or a record inside cannot be read.
   */
  boolean write(Copy copy, SmileOut out) {
    int mark = out.mark();
    try {
      if (container(copy, out, false) <= maxChars) {
        return true;
      }
      out.rewind(mark);
      if (container(copy, out, true) <= maxChars) {
        return true;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // written the tree's way
    }
    out.rewind(mark);
    return false;
  }

  /** Writes a copy; the length of its JSON text, {@code exact} or a bound. */
  private long container(Copy copy, SmileOut out, boolean exact)
      throws ReflectiveOperationException {
    Object[] values = copy.values();
    boolean array = copy.form() == Copy.Form.ARRAY;
    if (array) {
      out.startArray();
    } else {
      out.startObject();
    }
    long json = 1 + values.length; // the brackets and the commas
    for (int i = 0; i < values.length; i++) {
      if (array) {
        json += value(values[i], out, exact);
        continue;
      }
      Name name = name(copy.names()[i]);
      out.raw(name.bytes);
      json += name.jsonLength + 1; // and the colon
      if (name.secret) {
        out.string(Redaction.MASK);
        json += Redaction.MASK.length() + 2;
      } else {
        json += value(values[i], out, exact);
      }
    }
    if (array) {
      out.endArray();
    } else {
      out.endObject();
    }
    return values.length == 0 ? 2 : json;
  }

  private long value(Object v, SmileOut out, boolean exact) throws ReflectiveOperationException {
    if (v == null) {
      out.nullValue();
      return 4;
    }
    if (v instanceof String s) {
      return records.string(s, out, exact);
    }
    if (v instanceof Copy c) {
      return container(c, out, exact);
    }
    if (v instanceof Number n) { // an Integer, Long, Short, Byte or Double: what a copy keeps
      return RecordValues.boxed(n, out, exact);
    }
    if (v instanceof Boolean b) {
      out.bool(b);
      return b ? 4 : 5;
    }
    if (v instanceof Record r) {
      return records.object(r, RecordShape.of(r.getClass()), out, exact);
    }
    return records.string(v.toString(), out, exact); // a UUID, a java.time value: their text
  }

  /** The name {@code text}, from its slot or made and kept there. */
  private Name name(String text) {
    int slot = text.hashCode() & (NAME_SLOTS - 1);
    Name n = names[slot];
    if (n != null && n.text.equals(text)) {
      return n;
    }
    n =
        new Name(
            text,
            SmileOut.nameBytes(text),
            redaction.isSecretName(text),
            RecordValues.jsonLength(text));
    names[slot] = n;
    return n;
  }
}
