package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.CallPayload;
import dev.vigil.observe.Event;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.ValueCapture;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

class EventAssemblerTest {
  private static final Site TOOL =
      new Site(
          0,
          Role.TOOL,
          "demo.Tools",
          "setReminder",
          List.of("when", "password"),
          "setReminder",
          "tool.set_reminder");
  private static final Site EXECUTOR =
      new Site(
          1,
          Role.FRAMEWORK_TOOL,
          "dev.langchain4j.X",
          "executeWithContext",
          List.of("request", "context"),
          null,
          null);

  private static AgentConfig config(int maxChars) {
    Properties p = new Properties();
    p.setProperty("vigil.capture.max-chars", String.valueOf(maxChars));
    return AgentConfig.load(null, p, Map.of(), line -> {});
  }

  private static EventAssembler assembler(int maxChars) {
    return new EventAssembler(config(maxChars));
  }

  @Test
  void toolCallEvent() {
    long start = 5_000_000_000L; // a monotonic clock reading, as the advice takes it
    CapturedCall call =
        new CapturedCall(
            TOOL,
            start,
            start + 1_840_000,
            "main",
            new Object[] {"in 30 minutes", "pw"},
            "Reminder set",
            null,
            "turn-1",
            "session-7",
            "call_3",
            null,
            null,
            false,
            null);
    Event e = Encoded.event(assembler(4096), call, "robin", 17, 4242);
    assertEquals("tool.set_reminder", e.kind());
    assertEquals("ok", e.status());
    assertEquals(
        "{\"tool\":\"setReminder\",\"args\":{\"when\":\"in 30 minutes\",\"password\":\"***\"},"
            + "\"result\":\"Reminder set\",\"duration_ms\":1.84,\"class\":\"demo.Tools\",\"method\":\"setReminder\"}",
        e.payload().toString());
    assertEquals(17L, e.seq());
    assertEquals("turn-1", e.turn());
    assertEquals("session-7", e.session());
    assertEquals("call_3", e.callId());
  }

  @Test
  void everyKindOfCapturedValueReadsBackAsTheAnalyzerReadsIt() throws Exception {
    Site site =
        new Site(
            3,
            Role.TOOL,
            "demo.Tools",
            "book",
            List.of("guest", "apiKey", "nights", "price", "stay", "note", "odd"),
            "book_room",
            "tool.book_room");
    Object stay =
        new ObjectMapper()
            .readTree(
                "{\"from\":\"2025-03-01\",\"token\":\"t\",\"rooms\":[1,2.5,null,"
                    + "true],\"big\":12345678901234567890}");
    Object[] args = {
      "Zoë \uD83D\uDE00",
      "sk-abcdefghijklmnopqrstu",
      3L,
      new java.math.BigDecimal("120.50"),
      stay,
      "my key is sk-abcdefghijklmnopqrstu",
      new ValueCapture.Unreadable("demo.Odd", "toString threw X")
    };
    long start = 5_000_000_000L; // a monotonic clock reading, as the advice takes it
    CapturedCall call =
        new CapturedCall(
            site,
            start,
            start + 2_500_000,
            "worker-ü",
            args,
            0.5,
            null,
            "turn-2",
            "user-9",
            "call_7",
            null,
            null,
            false,
            null);
    Event e = Encoded.event(assembler(4096), call, "robin", Long.MAX_VALUE, 77);
    assertEquals(
        "{\"tool\":\"book_room\",\"args\":{\"guest\":\"Zoë \uD83D\uDE00\",\"apiKey\":\"***\","
            + "\"nights\":3,\"price\":120.5,\"stay\":{\"from\":\"2025-03-01\",\"token\":\"***\",\"rooms\":[1,2.5,"
            + "null,true],\"big\":12345678901234567890},\"note\":\"my key is ***\",\"odd\":\"<unreadable demo.Odd: "
            + "toString threw X>\"},\"result\":0.5,\"duration_ms\":2.5,\"class\":\"demo.Tools\",\"method\":\"book\"}",
        e.payload().toString());
    assertEquals(
        List.of(
            "tool.book_room",
            "ok",
            "robin",
            Long.MAX_VALUE,
            77L,
            "worker-ü",
            "turn-2",
            "call_7",
            "user-9"),
        java.util.Arrays.asList(
            e.kind(),
            e.status(),
            e.agent(),
            e.seq(),
            e.pid(),
            e.thread(),
            e.turn(),
            e.callId(),
            e.session()));
    CapturedCall later =
        new CapturedCall(
            site,
            start + 1_000_000_000L,
            start + 1_002_500_000L,
            "worker-ü",
            args,
            0.5,
            null,
            "turn-2",
            "user-9",
            "call_7",
            null,
            null,
            false,
            null);
    EventAssembler same = assembler(4096);
    assertEquals(
        java.time.Duration.ofSeconds(1),
        java.time.Duration.between(
            Encoded.event(same, call, "robin", 1, 77).ts(),
            Encoded.event(same, later, "robin", 2, 77).ts()),
        "ts is the call's start: a second later, a second later");
  }

  @Test
  void aToolNamedApartFromItsMethodAndARenamedKindReadBackAsTheyWere() {
    Site named =
        new Site(
            2, Role.TOOL, "demo.Hotels", "book", List.of("city"), "bookHotel", "tool.book_hotel");
    Site renamed =
        new Site(3, Role.TOOL, "demo.Backend", "confirm", List.of("id"), null, "reminder.receipt");
    EventAssembler assembler = assembler(4096);
    Event hotel = Encoded.event(assembler, callOf(named, 0, 2_000, "Lyon"), "robin", 1, 7);
    assertEquals("tool.book_hotel", hotel.kind());
    assertEquals("bookHotel", hotel.payload().get("tool").textValue());
    assertEquals("book", hotel.payload().get("method").textValue());
    Event receipt = Encoded.event(assembler, callOf(renamed, 0, 2_000, "r-1"), "robin", 2, 7);
    assertEquals("reminder.receipt", receipt.kind());
    assertEquals("confirm", receipt.payload().get("tool").textValue());
    assertEquals(
        "[tool, args, result, duration_ms, class, method]",
        receipt.payload().propertyStream().map(Map.Entry::getKey).toList().toString());
  }

  /** A call of {@code site} with {@code args} that returned {@code "done"}. */
  private static CapturedCall callOf(Site site, long startNanos, long endNanos, Object... args) {
    return Calls.returned(site, startNanos, endNanos, "main", "done", args);
  }

  @Test
  void durationIsRoundedToTheMicrosecondAsBefore() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(3);
    for (int i = 0; i < 1_000_000; i++) {
      long nanos = i < 5_000 ? i * 100L + random.nextInt(3) - 1 : random.nextLong(1L << 45);
      assertEquals(
          Math.round(nanos / 1_000.0) / 1_000.0,
          CallPayload.durationMs(EventAssembler.durationMicros(nanos)),
          "nanos " + nanos);
    }
  }

  @Test
  void anEventsTimeIsTheWallClockAtTheCallsStartTakenFromTheTimeSource() {
    Instant wall = Instant.parse("2026-11-26T09:55:00Z");
    TimeSource fixed =
        new TimeSource() {
          @Override
          public long nanoTime() {
            return 7_000_000_000L;
          }

          @Override
          public Instant now() {
            return wall;
          }
        };
    EventAssembler assembler = new EventAssembler(config(4096), fixed);
    CapturedCall call =
        callOf(TOOL, 7_000_000_000L + 1_500_000, 7_000_000_000L + 4_000_000, "09:00", "x");
    Event e = Encoded.event(assembler, call, "a", 1, 1);
    assertEquals(wall.plusNanos(1_500_000), e.ts());
    assertEquals(2.5, e.payload().path("duration_ms").asDouble());
  }

  @Test
  void failureAndTimeoutStatus() {
    Exception cause = new IOException("disk");
    CapturedCall failed =
        new CapturedCall(
            TOOL,
            0,
            1000,
            "t",
            null,
            null,
            new IllegalStateException("x", cause),
            null,
            null,
            null,
            null,
            null,
            false,
            null);
    Event e = Encoded.event(assembler(4096), failed, "a", 1, 1);
    assertEquals("fail", e.status());
    assertEquals(
        "java.lang.IllegalStateException", e.payload().path("error").path("type").asText());
    assertTrue(
        e.payload()
            .path("error")
            .path("frames")
            .get(0)
            .asText()
            .startsWith("dev.vigil.observe.writer."));
    assertFalse(e.payload().has("result"));

    assertTrue(EventAssembler.isTimeout(new TimeoutException()));
    assertTrue(EventAssembler.isTimeout(new SocketTimeoutException()));
    assertTrue(EventAssembler.isTimeout(new ExecutionException(new TimeoutException())));
    assertFalse(EventAssembler.isTimeout(new IOException("no")));
  }

  @Test
  void frameworkErrorResultIsAFailure() {
    CapturedCall call =
        new CapturedCall(
            EXECUTOR,
            0,
            1000,
            "t",
            null,
            null,
            null,
            null,
            null,
            "call_1",
            "bookHotel",
            "{\"city\":\"Oslo\",\"token\":\"abc\"}",
            true,
            "no rooms");
    Event e = Encoded.event(assembler(4096), call, "a", 1, 1);
    assertEquals("tool.book_hotel", e.kind());
    assertEquals("fail", e.status());
    assertEquals("{\"city\":\"Oslo\",\"token\":\"***\"}", e.payload().path("args").toString());
    assertEquals("no rooms", e.payload().path("error").path("message").asText());
  }

  @Test
  void longValuesAreCutAndMarked() throws Exception {
    ValueWriter a =
        new ValueWriter(
            AgentConfig.load(null, new Properties(), Map.of(), line -> {}).redaction(), 10);
    assertEquals("0123456789…(+5 chars)", a.cut("012345678901234", null, 0));
    assertEquals("short", a.cut("short", null, 0));
    String json =
        Encoded.value(a, new ObjectMapper().readTree("{\"list\":[1,2,3,4,5]}"), false, TOOL, 0)
            .asText();
    assertEquals("{\"list\":[1…(+10 chars)", json);
  }
}
