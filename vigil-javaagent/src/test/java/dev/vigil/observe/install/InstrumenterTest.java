package dev.vigil.observe.install;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.Frameworks;
import dev.vigil.observe.capture.Sites;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transformer behind the gate: it instruments the selected methods of a class it is handed,
 * registers their sites, and prepares object capture ahead of the first call only when a tool will
 * need it; its rehearsal registers nothing.
 */
class InstrumenterTest {
  /** Tools of a booking desk, named in {@code vigil.methods.include}. */
  static final class Desk {
    enum Size {
      COMPACT,
      VAN
    }

    record Car(Size size, boolean automatic) {}

    record Booking(String number, java.time.LocalDate pickUp, Car car, Long customer) {}

    record Receipt(String number, List<String> lines) {}

    record Named(@JsonProperty("n") String name) {}

    Booking find(String number) {
      return new Booking(
          number, java.time.LocalDate.of(2026, 12, 18), new Car(Size.COMPACT, true), 7L);
    }

    Receipt receipt(String number) {
      return new Receipt(number, List.of("one day"));
    }

    Named named(String name) {
      return new Named(name);
    }

    String status(String number, int day) {
      return number + day;
    }
  }

  private final ClassLoader loader = InstrumenterTest.class.getClassLoader();

  private static Instrumenter instrumenter(String include, Sites sites) {
    Properties none = new Properties();
    AgentConfig config = AgentConfig.load("methods.include=" + include, none, Map.of(), w -> {});
    return new Instrumenter(config, sites, Frameworks.all());
  }

  @Test
  void instrumentsTheIncludedMethodsAndPreparesObjectCaptureOnceForAToolReturningAnObject()
      throws Exception {
    Sites sites = new Sites();
    Instrumenter instrumenter = instrumenter(Desk.class.getName() + "[receipt,status]", sites);
    CountDownLatch prepared = new CountDownLatch(1);
    AtomicInteger preparations = new AtomicInteger();
    instrumenter.onFirstObjectCapture(
        () -> {
          preparations.incrementAndGet();
          prepared.countDown();
        });
    byte[] out =
        instrumenter.transform(null, loader, internal(Desk.class), null, null, bytes(Desk.class));
    assertNotNull(out);
    assertEquals(2, sites.size());
    assertTrue(prepared.await(1, TimeUnit.MINUTES));
    instrumenter.transform(null, loader, internal(Desk.class), Desk.class, null, bytes(Desk.class));
    assertEquals(2, sites.size(), "a retransformation keeps the sites");
    assertEquals(1, preparations.get());
  }

  @ParameterizedTest
  @ValueSource(strings = {"status", "find"})
  void aToolOfJdkValuesOrOfRecordsWrittenFromTheirFieldsNeedsNoPreparation(String method)
      throws Exception {
    Sites sites = new Sites();
    Instrumenter instrumenter = instrumenter(Desk.class.getName() + "[" + method + "]", sites);
    AtomicInteger preparations = new AtomicInteger();
    instrumenter.onFirstObjectCapture(preparations::incrementAndGet);
    assertNotNull(
        instrumenter.transform(null, loader, internal(Desk.class), null, null, bytes(Desk.class)));
    assertEquals(1, sites.size());
    assertEquals(method, sites.get(0).method());
    assertEquals(0, preparations.get());
  }

  @Test
  void aClassWithoutTargetsIsLeftAsItIsAndTheRehearsalRegistersNothing() throws Exception {
    Sites sites = new Sites();
    Instrumenter instrumenter = instrumenter(Desk.class.getName() + "[find]", sites);
    instrumenter.rehearse();
    assertNull(
        instrumenter.transform(
            null,
            loader,
            internal(InstrumenterTest.class),
            null,
            null,
            bytes(InstrumenterTest.class)));
    assertEquals(0, sites.size());
  }

  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  private static byte[] bytes(Class<?> c) throws IOException {
    try (InputStream in = c.getClassLoader().getResourceAsStream(internal(c) + ".class")) {
      return in.readAllBytes();
    }
  }
}
