package dev.vigil.observe.capture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Pooled generators write what a new generator writes, whatever came before on them. */
class SnapshotGeneratorsTest {
  private final ObjectMapper mapper = CaptureMapper.create();
  private final SnapshotGenerators generators = new SnapshotGenerators(mapper);

  /** A graph that refers to itself: the generator fails part-way through it. */
  static final class Cycle {
    @SuppressWarnings("UnusedVariable") // read by the mapper, which reads fields
    Cycle next;
  }

  private static Map<String, Object> value(int i) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("city", "city " + i);
    m.put("n", i);
    m.put("list", List.of(i, "x".repeat(i % 100), Map.of("deep", (double) i / 7)));
    return m;
  }

  @Test
  void reusedGeneratorsWriteWhatANewOneWrites() throws Exception {
    for (int i = 0; i < 2_000; i++) {
      Object v = i % 500 == 7 ? "y".repeat(SnapshotGenerators.KEPT_BYTES + 10) : value(i);
      assertArrayEquals(mapper.writeValueAsBytes(v), generators.write(v), "value " + i);
    }
  }

  @Test
  void aGeneratorThatFailedIsNotReused() throws Exception {
    Cycle cycle = new Cycle();
    cycle.next = cycle;
    for (int i = 0; i < 50; i++) {
      assertThrows(Exception.class, () -> generators.write(cycle));
      assertArrayEquals(mapper.writeValueAsBytes(value(i)), generators.write(value(i)));
    }
  }

  @Test
  void threadsSharingThePoolEachGetTheirOwnValue() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int base = t * 10_000;
        done.add(
            pool.submit(
                () -> {
                  for (int i = base; i < base + 2_000; i++) {
                    assertArrayEquals(
                        mapper.writeValueAsBytes(value(i)), generators.write(value(i)));
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
