package dev.vigil.observe.capture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The snapshot of an object that can change (a bean, a list, a map), taken on the calling thread by
 * {@link ValueCapture}: its JSON as Smile bytes (Jackson's binary JSON), written by Vigil's own
 * mapper ({@link CaptureMapper}) with no header and no back-references, so that the bytes are one
 * self-contained value. Taking the bytes is the whole cost on the application's thread; the writer
 * thread reads them token by token into the event's payload, redacting as it goes, and makes the
 * JSON tree ({@link #tree}) only when the value is too long and must be cut.
 */
public final class Snapshot {
  private static final byte START_OBJECT = (byte) 0xFA;
  private static final byte END_OBJECT = (byte) 0xFB;

  private final byte[] smile;
  private final ObjectMapper mapper;

  Snapshot(byte[] smile, ObjectMapper mapper) {
    this.smile = smile;
    this.mapper = mapper;
  }

  /** The bytes themselves, not a copy: never to be changed. */
  public byte[] smile() {
    return smile;
  }

  /** The value as a JSON tree, as Jackson reads its bytes. */
  public JsonNode tree() {
    try {
      return mapper.readTree(smile);
    } catch (IOException e) {
      throw new UncheckedIOException("a snapshot that Vigil wrote does not read back", e);
    }
  }

  /** Whether the bytes are an empty JSON object: an object with no field Vigil could read. */
  static boolean isEmptyObject(byte[] smile) {
    return smile.length == 2 && smile[0] == START_OBJECT && smile[1] == END_OBJECT;
  }

  /** The value's JSON text. */
  @Override
  public String toString() {
    return tree().toString();
  }
}
