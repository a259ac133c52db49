package dev.vigil.emobank;

import dev.vigil.observe.Timestamps;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * The bank's live rows in columns of primitives (docs/DESIGN.md#the-emobank): a row is 48 bytes
 * (its time, three numbers and four strings each kept once in a table) rather than two objects of
 * about 90, so that a bank of a million rows fits in a small heap. The columns grow by half when
 * full. {@link #get} makes the {@link EmotionRow} anew. Live rows are never {@code amend} rows.
 */
final class LiveRows extends AbstractList<EmotionRow> implements RandomAccess {
  private final Map<String, Integer> index = new HashMap<>();
  private final List<String> strings = new ArrayList<>();
  private long[] ts = new long[64];
  private double[] intensity = new double[64];
  private double[] valence = new double[64];
  private double[] confidence = new double[64];
  private int[] emotion = new int[64];
  private int[] cause = new int[64];
  private int[] episode = new int[64];
  private int[] source = new int[64];
  private int size;
  private final String[] lastString = new String[4];
  private final int[] lastIndex = new int[4];

  @Override
  public EmotionRow get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException(i);
    }
    return new EmotionRow(
        Timestamps.ofEpochNanos(ts[i]),
        strings.get(emotion[i]),
        intensity[i],
        valence[i],
        strings.get(cause[i]),
        strings.get(episode[i]),
        confidence[i],
        strings.get(source[i]),
        false);
  }

  @Override
  public int size() {
    return size;
  }

  /** The time of row {@code i}, in nanoseconds since the epoch, without making the row. */
  long tsNanos(int i) {
    return ts[i];
  }

  @Override
  public boolean add(EmotionRow row) {
    if (size == ts.length) {
      grow();
    }
    put(size++, row);
    modCount++;
    return true;
  }

  @Override
  public EmotionRow set(int i, EmotionRow row) {
    EmotionRow was = get(i);
    put(i, row);
    return was;
  }

  @Override
  public void clear() {
    size = 0;
    modCount++;
  }

  private void put(int i, EmotionRow row) {
    ts[i] = Timestamps.epochNanos(row.ts());
    intensity[i] = row.intensity();
    valence[i] = row.valence();
    confidence[i] = row.confidence();
    emotion[i] = string(row.emotion(), 0);
    cause[i] = string(row.cause(), 1);
    episode[i] = string(row.episode(), 2);
    source[i] = string(row.source(), 3);
  }

  /**
   * The string's place in the table; each column remembers its last string, which most rows repeat.
   */
  private int string(String s, int column) {
    if (s != null && s.equals(lastString[column])) {
      return lastIndex[column];
    }
    int at = string(s);
    lastString[column] = s;
    lastIndex[column] = at;
    return at;
  }

  private int string(String s) {
    Integer at = index.get(s);
    if (at == null) {
      at = strings.size();
      strings.add(s);
      index.put(s, at);
    }
    return at;
  }

  private void grow() {
    int n = ts.length + (ts.length >> 1);
    ts = Arrays.copyOf(ts, n);
    intensity = Arrays.copyOf(intensity, n);
    valence = Arrays.copyOf(valence, n);
    confidence = Arrays.copyOf(confidence, n);
    emotion = Arrays.copyOf(emotion, n);
    cause = Arrays.copyOf(cause, n);
    episode = Arrays.copyOf(episode, n);
    source = Arrays.copyOf(source, n);
  }
}
