package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Prefetcher}: items in order with their numbers, the producer's failure after its items,
 * and a taker that fails stopping the producer, even one whose interrupt a library swallowed.
 */
class PrefetcherTest {
  private static final String THREAD = "prefetcher-test";

  private static List<Thread> alive() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals(THREAD) && t.isAlive())
        .toList();
  }

  @Test
  void itemsArriveInOrderWithTheirNumbersAcrossBatches() throws IOException {
    int n = 3 * Prefetcher.BATCH + 5;
    List<String> taken = new ArrayList<>();
    Prefetcher.<String>run(
        THREAD,
        out -> {
          for (int i = 0; i < n; i++) {
            out.put("item " + i, 1000L + i);
          }
        },
        (item, number) -> taken.add(item + "@" + number));
    assertEquals(n, taken.size());
    for (int i = 0; i < n; i++) {
      assertEquals("item " + i + "@" + (1000 + i), taken.get(i));
    }
    assertEquals(List.of(), alive());
  }

  @Test
  void whatTheProducerThrowsComesAfterTheItemsBeforeIt() {
    List<Long> taken = new ArrayList<>();
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                Prefetcher.<Long>run(
                    THREAD,
                    out -> {
                      for (long i = 0; i < Prefetcher.BATCH + 3; i++) {
                        out.put(i, i);
                      }
                      throw new IOException("disk gone");
                    },
                    (item, number) -> taken.add(item)));
    assertEquals("disk gone", e.getMessage());
    assertEquals(Prefetcher.BATCH + 3, taken.size());
  }

  @Test
  void aTakerThatFailsStopsEvenAProducerWhoseInterruptWasSwallowed() {
    assertTimeoutPreemptively(
        Duration.ofSeconds(60), // a guard against a hang only
        () -> {
          IllegalStateException e =
              assertThrows(
                  IllegalStateException.class,
                  () ->
                      Prefetcher.<Long>run(
                          THREAD,
                          out -> {
                            for (long i = 0; ; i++) {
                              Thread.interrupted(); // as a library that clears the flag would
                              out.put(i, i);
                            }
                          },
                          (item, number) -> {
                            if (item == 3) {
                              throw new IllegalStateException("full");
                            }
                          }));
          assertEquals("full", e.getMessage());
        });
    assertEquals(List.of(), alive());
  }
}
