package dev.vigil.observe;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The fields of one payload object, in insertion order, in two parallel arrays searched linearly:
 * an event's objects hold a handful of fields, for which this takes a fifth of a {@link
 * java.util.LinkedHashMap}'s heap (no entry object per field, no hash table) and is as fast.
 * Behaves as an insertion-ordered map in every respect Jackson's {@code ObjectNode} relies on; a
 * key put again keeps its place. An object that grows past {@value #LINEAR_MAX} fields moves into a
 * {@link LinkedHashMap}, so a large object costs no quadratic search.
 */
final class SmallObjectMap extends AbstractMap<String, JsonNode> {
  static final int LINEAR_MAX = 16;

  private LinkedHashMap<String, JsonNode> big;
  private String[] keys;
  private JsonNode[] values;
  private int size;
  private int modCount;

  SmallObjectMap(int capacity) {
    keys = new String[Math.max(1, capacity)];
    values = new JsonNode[keys.length];
  }

  @Override
  public int size() {
    return big != null ? big.size() : size;
  }

  private int indexOf(Object key) {
    for (int i = 0; i < size; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public boolean containsKey(Object key) {
    return big != null ? big.containsKey(key) : indexOf(key) >= 0;
  }

  @Override
  public JsonNode get(Object key) {
    if (big != null) {
      return big.get(key);
    }
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public JsonNode put(String key, JsonNode value) {
    Objects.requireNonNull(key, "key");
    if (big != null) {
      return big.put(key, value);
    }
    int i = indexOf(key);
    if (i >= 0) {
      JsonNode old = values[i];
      values[i] = value;
      return old;
    }
    if (size == LINEAR_MAX) {
      big = new LinkedHashMap<>(LINEAR_MAX * 4);
      for (int k = 0; k < size; k++) {
        big.put(keys[k], values[k]);
      }
      keys = null;
      values = null;
      size = 0;
      return big.put(key, value);
    }
    if (size == keys.length) {
      keys = Arrays.copyOf(keys, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    keys[size] = key;
    values[size] = value;
    size++;
    modCount++;
    return null;
  }

  @Override
  public JsonNode remove(Object key) {
    if (big != null) {
      return big.remove(key);
    }
    int i = indexOf(key);
    if (i < 0) {
      return null;
    }
    JsonNode old = values[i];
    removeAt(i);
    return old;
  }

  private void removeAt(int i) {
    System.arraycopy(keys, i + 1, keys, i, size - i - 1);
    System.arraycopy(values, i + 1, values, i, size - i - 1);
    size--;
    keys[size] = null;
    values[size] = null;
    modCount++;
  }

  @Override
  public void clear() {
    if (big != null) {
      big.clear();
      return;
    }
    Arrays.fill(keys, 0, size, null);
    Arrays.fill(values, 0, size, null);
    size = 0;
    modCount++;
  }

  @Override
  public Set<Map.Entry<String, JsonNode>> entrySet() {
    if (big != null) {
      return big.entrySet();
    }
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Map.Entry<String, JsonNode>> iterator() {
        return new Iterator<>() {
          private int next;
          private int last = -1;
          private int expected = modCount;

          @Override
          public boolean hasNext() {
            return next < size;
          }

          @Override
          public Map.Entry<String, JsonNode> next() {
            if (expected != modCount) {
              throw new ConcurrentModificationException();
            }
            if (next >= size) {
              throw new NoSuchElementException();
            }
            last = next++;
            return new Field(last);
          }

          @Override
          public void remove() {
            if (last < 0) {
              throw new IllegalStateException();
            }
            if (expected != modCount) {
              throw new ConcurrentModificationException();
            }
            removeAt(last);
            next = last;
            last = -1;
            expected = modCount;
          }
        };
      }
    };
  }

  /** A live view of the field at one index, as {@link java.util.LinkedHashMap}'s entries are. */
  private final class Field implements Map.Entry<String, JsonNode> {
    private final int at;

    Field(int at) {
      this.at = at;
    }

    @Override
    public String getKey() {
      return keys[at];
    }

    @Override
    public JsonNode getValue() {
      return values[at];
    }

    @Override
    public JsonNode setValue(JsonNode value) {
      JsonNode old = values[at];
      values[at] = value;
      return old;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e
          && Objects.equals(getKey(), e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return Objects.hashCode(getKey()) ^ Objects.hashCode(getValue());
    }

    @Override
    public String toString() {
      return getKey() + "=" + getValue();
    }
  }
}
