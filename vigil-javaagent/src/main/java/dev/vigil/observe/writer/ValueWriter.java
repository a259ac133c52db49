package dev.vigil.observe.writer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.agent.Stderr;
import dev.vigil.observe.agent.TreeRedaction;
import dev.vigil.observe.capture.Copy;
import dev.vigil.observe.capture.RecordShape;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Snapshot;
import dev.vigil.observe.capture.ValueCapture;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Writes one captured value (a {@link ValueCapture} snapshot) into an event's payload as JSON:
 * masked when its name is a secret, the redaction patterns applied to every string, cut to the size
 * limit ({@code vigil.capture.max-chars}) and marked. Strings, numbers and booleans go straight to
 * the {@link SmileOut}; a JSON tree is redacted in place and written whole, or as its cut text when
 * its JSON is longer than the limit; a record that cannot change is written from its fields the
 * same way ({@link RecordValues}), a small object's {@link Copy} from its values ({@link
 * CopyValues}), and an object's {@link Snapshot} from its bytes, token by token ({@link
 * SnapshotValues}); each becomes a tree only when it must be cut. Any thread.
 */
final class ValueWriter {
  private final Redaction redaction;
  private final int maxChars;
  private final RecordValues records;
  private final SnapshotValues snapshots;
  private final CopyValues copies;

  /** Makes the JSON tree of a record too long to write from its fields (made on first use). */
  private final ValueCapture trees = new ValueCapture();

  ValueWriter(Redaction redaction, int maxChars) {
    this.redaction = redaction;
    this.maxChars = maxChars;
    this.records = new RecordValues(redaction, maxChars);
    this.snapshots = new SnapshotValues(redaction, maxChars);
    this.copies = new CopyValues(redaction, maxChars, records);
  }

  /**
   * Writes {@code v}.
   *
   * @param site the method the value belongs to, named in the line printed when it is cut; null for
   *     none
   * @param index the parameter index, or -1 for the return value
   */
  void write(Object v, boolean secret, Site site, int index, SmileOut out) {
    if (v == null) {
      out.nullValue();
    } else if (secret) {
      out.string(Redaction.MASK);
    } else if (v instanceof String s) {
      if (!out.repeat(s)) {
        int mark = out.mark();
        if (s.length() > maxChars || !redaction.writeUnchanged(s, out)) {
          out.string(cut(redaction.text(s), site, index));
        }
        if (s.length() <= maxChars) { // a string cut is written (and reported) each time
          out.remember(s, mark);
        }
      }
    } else if (v instanceof Boolean b) {
      out.bool(b);
    } else if (v instanceof Integer n) {
      out.number(n.intValue());
    } else if (v instanceof Long n) {
      out.number(n.longValue());
    } else if (v instanceof Double n) {
      out.number(n.doubleValue());
    } else if (v instanceof Float n) {
      out.number(n.floatValue());
    } else if (v instanceof Short || v instanceof Byte) {
      out.number(((Number) v).intValue());
    } else if (v instanceof BigInteger n) {
      out.number(n);
    } else if (v instanceof BigDecimal n) {
      out.number(
          JsonNodeFactory.instance
              .numberNode(n)
              .decimalValue()); // normalized as the tree always was
    } else if (v instanceof Copy copy) {
      if (!copies.write(copy, out)) { // longer than the limit
        cutTheTreesWay(copy.rebuilt(), site, index, out);
      }
    } else if (v instanceof Snapshot snapshot) {
      if (!snapshots.write(snapshot, out)) {
        tree(snapshot.tree(), site, index, out); // longer than the limit: cut
      }
    } else if (v instanceof JsonNode tree) {
      tree(tree, site, index, out);
    } else if (v instanceof ValueCapture.Unreadable u) {
      out.string(u.text());
    } else if (!(v instanceof Record r && record(r, site, index, out))) {
      out.string(cut(redaction.text(String.valueOf(v)), site, index));
    }
  }

  /**
   * Writes a record that cannot change ({@link RecordShape}); false, with nothing written, for any
   * other.
   */
  private boolean record(Record r, Site site, int index, SmileOut out) {
    RecordShape shape = RecordShape.of(r.getClass());
    if (shape == null) {
      return false;
    }
    if (!records.write(r, shape, out)) { // longer than the limit
      cutTheTreesWay(r, site, index, out);
    }
    return true;
  }

  /**
   * Writes {@code value} (a record, or a copy rebuilt as a map or a list) from the JSON tree
   * Vigil's mapper makes of it: the way a value longer than the size limit is cut.
   */
  private void cutTheTreesWay(Object value, Site site, int index, SmileOut out) {
    Object snapshot = trees.tree(value, site, index);
    write(snapshot instanceof Snapshot s ? s.tree() : snapshot, false, site, index, out);
  }

  private void tree(JsonNode tree, Site site, int index, SmileOut out) {
    JsonNode redacted = TreeRedaction.apply(redaction, tree);
    if (redacted.isTextual()) {
      out.string(cut(redacted.textValue(), site, index));
      return;
    }
    if (redacted.isContainerNode()) {
      String json = redacted.toString();
      if (json.length() > maxChars) {
        out.string(cut(json, site, index));
        return;
      }
    }
    out.tree(redacted);
  }

  /**
   * A captured value as one string (the text of a turn): redacted, cut to the size limit; a tree's
   * JSON, a number's or a boolean's JSON text.
   */
  String text(Object captured) {
    Object snapshot = captured;
    if (captured instanceof Record r
        && !(r instanceof ValueCapture.Unreadable)
        && RecordShape.of(r.getClass()) != null) {
      snapshot = trees.tree(r, null, -1);
    } else if (captured instanceof Copy copy) {
      snapshot = trees.tree(copy.rebuilt(), null, -1);
    }
    if (snapshot instanceof Snapshot s) {
      snapshot = s.tree();
    }
    if (snapshot == null) {
      return null;
    }
    if (snapshot instanceof String s) {
      return cut(redaction.text(s), null, 0);
    }
    if (snapshot instanceof ValueCapture.Unreadable u) {
      return u.text();
    }
    if (snapshot instanceof JsonNode tree) {
      JsonNode redacted = TreeRedaction.apply(redaction, tree);
      return cut(redacted.isTextual() ? redacted.textValue() : redacted.toString(), null, 0);
    }
    if (snapshot instanceof BigDecimal n) {
      return JsonNodeFactory.instance.numberNode(n).toString();
    }
    if (snapshot instanceof Number || snapshot instanceof Boolean) {
      return String.valueOf(snapshot);
    }
    return cut(redaction.text(String.valueOf(snapshot)), null, 0);
  }

  /** {@code text} cut to the size limit and marked {@code …(+N chars)}. */
  String cut(String text, Site site, int index) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int end = maxChars;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    if (site != null) {
      Stderr.warn(
          "cut",
          ValueCapture.describe(site, index)
              + " has "
              + text.length()
              + " chars; recorded cut to "
              + end
              + " (vigil.capture.max-chars)");
    }
    return text.substring(0, end) + "…(+" + (text.length() - end) + " chars)";
  }
}
