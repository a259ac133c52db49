package dev.vigil.observe.writer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventEncoder;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.capture.Captured;
import dev.vigil.observe.capture.Site;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import net.openhft.chronicle.bytes.Bytes;

/** What the agent encodes, read back as the analyzer reads it. */
final class Encoded {
  private static final ObjectMapper SMILE =
      new ObjectMapper(SmileFactory.builder().disable(SmileParser.Feature.REQUIRE_HEADER).build());

  private Encoded() {}

  /** The event of {@code captured} as the assembler encodes it, with {@code seq}. */
  static Event event(
      EventAssembler assembler, Captured captured, String agent, long seq, long pid) {
    EventEncoder encoder = new EventEncoder();
    assembler.encode(captured, encoder, agent, pid);
    Bytes<?> bytes = Bytes.allocateElasticOnHeap();
    encoder.writeTo(bytes, seq);
    try {
      return EventWire.read(bytes);
    } catch (EventFormatException e) {
      throw new AssertionError(e);
    }
  }

  /** A value writer with the default redaction and a size limit of {@code maxChars}. */
  static ValueWriter writer(int maxChars) {
    Properties p = new Properties();
    p.setProperty("vigil.capture.max-chars", Integer.toString(maxChars));
    AgentConfig config = AgentConfig.load(null, p, Map.of(), line -> {});
    return new ValueWriter(config.redaction(), config.maxChars());
  }

  /** One captured value as the writer writes it into a payload. */
  static JsonNode value(ValueWriter writer, Object v, boolean secret, Site site, int index) {
    SmileOut out = new SmileOut();
    writer.write(v, secret, site, index, out);
    try {
      return SMILE.readTree(out.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
