package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EventJsonTest {
  private static final String DESIGN_EXAMPLE =
      "{\"ts\":\"2026-11-22T10:15:30.123456Z\",\"kind\":\"tool.set_reminder\",\"status\":\"ok\","
          + "\"payload\":{\"tool\":\"setReminder\",\"args\":{\"when\":\"in 30 minutes\",\"task\":\"tea\"},"
          + "\"result\":\"Reminder set\",\"duration_ms\":1.84,\"class\":\"demo.robin.RobinTools\","
          + "\"method\":\"setReminder\"},\"agent\":\"robin\",\"seq\":17,\"pid\":4242,\"thread\":\"main\","
          + "\"turn\":\"9f2c\",\"call_id\":\"call_3\",\"session\":\"user-42\"}";

  @Test
  void readsAndWritesTheExampleOfDesignMdByteForByte() throws Exception {
    EventJson.Parsed parsed = EventJson.read(DESIGN_EXAMPLE, ZoneOffset.UTC);
    Event e = parsed.event();
    assertEquals(Instant.parse("2026-11-22T10:15:30.123456Z"), e.ts());
    assertEquals("tool.set_reminder", e.kind());
    assertEquals("robin", e.agent());
    assertEquals(17L, e.seq());
    assertEquals(4242L, e.pid());
    assertEquals("call_3", e.callId());
    assertEquals("user-42", e.session());
    assertEquals(1.84, e.payload().get("duration_ms").doubleValue());
    assertFalse(parsed.naiveTs());
    assertEquals(DESIGN_EXAMPLE, EventJson.write(e));
  }

  @Test
  void readsThePaperFormatAndOmitsAbsentOptionalFields() throws Exception {
    String paper =
        "{\"ts\": \"2025-10-31T23:59:59Z\", \"kind\": \"reminder.toast\", \"status\": \"delay\","
            + " \"payload\": {\"delayed_by_sec\": 97, \"scheduled_utc\": \"...\"}}";
    Event e = EventJson.read(paper, ZoneOffset.UTC).event();
    assertNull(e.agent());
    assertNull(e.seq());
    assertEquals(
        "{\"ts\":\"2025-10-31T23:59:59.000000Z\",\"kind\":\"reminder.toast\",\"status\":\"delay\","
            + "\"payload\":{\"delayed_by_sec\":97,\"scheduled_utc\":\"...\"}}",
        EventJson.write(e));
  }

  @Test
  void ignoresUnknownTopLevelFields() throws Exception {
    String line =
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"extra\":{\"deep\":[1,2,{\"x\":null}]},\"kind\":\"k\","
            + "\"status\":\"ok\",\"payload\":{},\"user\":\"ann\"}";
    Event e = EventJson.read(line, ZoneOffset.UTC).event();
    assertEquals("k", e.kind());
    assertEquals(
        "{\"ts\":\"2025-10-31T23:59:59.000000Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}}",
        EventJson.write(e));
  }

  @Test
  void flagsNaiveTimestampsAndReadsThemInTheAssumedZone() throws Exception {
    String line =
        "{\"ts\":\"2025-10-31 23:59:59\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}}";
    EventJson.Parsed parsed = EventJson.read(line, ZoneId.of("America/New_York"));
    assertTrue(parsed.naiveTs());
    assertEquals(Instant.parse("2025-11-01T03:59:59Z"), parsed.event().ts());
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "not json at all | not_json",
        "[1,2,3] | not_json",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}} trailing | not_json",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"ok\"} | missing_field",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"payload\":{}} | missing_field",
        "{\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}} | missing_field",
        "{\"ts\":null,\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}} | missing_field",
        "{\"ts\":\"31/10/2025\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}} | bad_ts",
        "{\"ts\":1730419199,\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}} | bad_field",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":[]} | bad_field",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{},\"seq\":\"7\"} | bad_field"
      })
  void countsEachDefectUnderItsReason(String line, String reason) {
    EventFormatException e =
        assertThrows(EventFormatException.class, () -> EventJson.read(line, ZoneOffset.UTC));
    assertEquals(reason, e.defect().code());
  }

  @Test
  void namesTheMissingField() {
    EventFormatException e =
        assertThrows(
            EventFormatException.class,
            () ->
                EventJson.read(
                    "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"payload\":{}}",
                    ZoneOffset.UTC));
    assertEquals("required field \"status\" is missing", e.getMessage());
  }

  @Test
  void roundTripsRandomEventsThroughJson() throws Exception {
    RandomEvents random = new RandomEvents(42, 0, false);
    for (int i = 0; i < 2_000; i++) {
      Event e = random.next();
      String json = EventJson.write(e);
      assertFalse(json.contains("\n"), "one event is one line");
      Event back = EventJson.read(json, ZoneOffset.UTC).event();
      assertEquals(json, EventJson.write(back));
      assertEquals(e.ts(), back.ts());
    }
  }

  @Test
  void aPendingEventReadAtAnyOffsetIsTheEventReadWhole() throws Exception {
    RandomEvents random = new RandomEvents(7, 0, false);
    for (int i = 0; i < 2_000; i++) {
      String json = EventJson.write(random.next());
      String padding = " ".repeat(i % 5) + "junk\n".repeat(i % 3);
      byte[] buf = (padding + json + "\ntrailing").getBytes(StandardCharsets.UTF_8);
      int offset = padding.getBytes(StandardCharsets.UTF_8).length;
      int length = json.getBytes(StandardCharsets.UTF_8).length;
      PendingEvent pending = EventJson.readPending(buf, offset, length, ZoneOffset.UTC);
      Event whole = EventJson.read(json, ZoneOffset.UTC).event();
      assertEquals(whole.ts(), pending.ts());
      assertEquals(whole.agent(), pending.agent());
      assertEquals(json, EventJson.write(pending.event()));
      assertEquals(whole, pending.event());
    }
  }

  @Test
  void aPendingEventsPayloadIsCheckedWhenRead() {
    for (String bad : new String[] {"{\"a\":}", "{\"a\":1", "[1]", "\"text\"", "{\"a\":tru}"}) {
      byte[] line =
          ("{\"ts\":\"2026-11-22T10:00:00Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":"
                  + bad
                  + ",\"seq\":1}")
              .getBytes(StandardCharsets.UTF_8);
      EventFormatException e =
          assertThrows(
              EventFormatException.class,
              () -> EventJson.readPending(line, 0, line.length, ZoneOffset.UTC),
              bad);
      assertTrue(
          e.defect() == EventDefect.NOT_JSON || e.defect() == EventDefect.BAD_FIELD,
          bad + ": " + e);
    }
  }

  @Test
  void aPendingReadAcceptsAndRefusesExactlyTheLinesAWholeReadDoes() throws Exception {
    String ok =
        "\"ts\":\"2026-11-22T10:00:00Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{\"a\":1}";
    List<byte[]> lines = new java.util.ArrayList<>();
    for (String text :
        new String[] {
          "{" + ok + "}",
          "{"
              + ok
              + ",\"agent\":\"robin\",\"seq\":1,\"pid\":2,\"thread\":\"t\",\"turn\":\"u\",\"call_id\":\"c\"}",
          "{"
              + ok
              + ",\"agent\":null,\"seq\":null,\"thread\":null,\"turn\":null,\"call_id\":null,\"extra\":[1,{}]}",
          "{" + ok + ",\"kind\":null}",
          "{" + ok + ",\"kind\":3}",
          "{" + ok + ",\"status\":{}}",
          "{" + ok + ",\"payload\":null}",
          "{" + ok + ",\"payload\":[]}",
          "{" + ok + ",\"seq\":\"1\"}",
          "{" + ok + ",\"seq\":1.5}",
          "{" + ok + ",\"pid\":123456789012345678901234567890}",
          "{" + ok + ",\"pid\":-99999999999999999,\"seq\":999999999999999999}",
          "{" + ok + ",\"pid\":9223372036854775807,\"seq\":-9223372036854775808}",
          "{" + ok + ",\"seq\":9223372036854775808}",
          "{" + ok + ",\"pid\":-9223372036854775809}",
          "{" + ok + ",\"thread\":1}",
          "{" + ok + ",\"turn\":[\"x\"]}",
          "{" + ok + ",\"call_id\":true}",
          "{" + ok + ",\"agent\":7}",
          "{" + ok + ",\"ts\":\"yesterday\"}",
          "{" + ok + ",\"ts\":\"2026-11-22 10:00:00\"}",
          "{" + ok + "} {}",
          "{" + ok + ",}",
          "{\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}}",
          "{\"ts\":\"2026-11-22T10:00:00Z\",\"status\":\"ok\",\"payload\":{}}",
          "[1,2]",
          "not json"
        }) {
      lines.add(text.getBytes(StandardCharsets.UTF_8));
    }
    java.io.ByteArrayOutputStream badUtf8 = new java.io.ByteArrayOutputStream();
    badUtf8.write(("{" + ok + ",\"turn\":\"caf").getBytes(StandardCharsets.UTF_8));
    badUtf8.write(0xE9);
    badUtf8.write("\"}".getBytes(StandardCharsets.UTF_8));
    lines.add(badUtf8.toByteArray());
    for (byte[] line : lines) {
      String text = new String(line, StandardCharsets.UTF_8);
      String whole;
      String pending;
      try {
        whole =
            "ok " + EventJson.write(EventJson.read(line, 0, line.length, ZoneOffset.UTC).event());
      } catch (EventFormatException e) {
        whole = e.defect() + " " + e.getMessage();
      }
      try {
        pending =
            "ok "
                + EventJson.write(
                    EventJson.readPending(line, 0, line.length, ZoneOffset.UTC).event());
      } catch (EventFormatException e) {
        pending = e.defect() + " " + e.getMessage();
      }
      assertEquals(whole, pending, text);
    }
  }

  @Test
  void payloadIsWrittenAsATree() throws Exception {
    ObjectNode payload = EventJson.mapper().createObjectNode();
    payload.putObject("args").put("when", "15:00").putNull("zone");
    payload.putArray("list").add(1).add("two");
    Event e = Event.of(Instant.parse("2026-01-01T00:00:00Z"), "tool.x", "ok", payload);
    assertEquals(
        "{\"ts\":\"2026-01-01T00:00:00.000000Z\",\"kind\":\"tool.x\",\"status\":\"ok\","
            + "\"payload\":{\"args\":{\"when\":\"15:00\",\"zone\":null},\"list\":[1,\"two\"]}}",
        EventJson.write(e));
  }
}
