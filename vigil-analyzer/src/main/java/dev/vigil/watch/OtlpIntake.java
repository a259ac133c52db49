package dev.vigil.watch;

import dev.vigil.ingest.otlp.OtlpSpool;
import dev.vigil.ingest.otlp.SpoolMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/**
 * What {@code watch --otlp-port} runs beside the tail (docs/OPENTELEMETRY.md#the-receiver): the
 * {@link OtlpReceiver} spooling what it accepts, and the {@link SpoolMapper} appending the events
 * of each complete trace to the queue the tail reads. Closing stops the receiver first, so that
 * nothing is answered 200 that is not spooled, then the mapper, whose pending traces wait in the
 * spool.
 */
public final class OtlpIntake implements AutoCloseable {
  /** The spool's queue, inside the spool directory. */
  static final String SPOOL_QUEUE = "requests";

  private final OtlpSpool spool;
  private final SpoolMapper mapper;
  private final OtlpReceiver receiver;

  private OtlpIntake(OtlpSpool spool, SpoolMapper mapper, OtlpReceiver receiver) {
    this.spool = spool;
    this.mapper = mapper;
    this.receiver = receiver;
  }

  /**
   * Opens the spool in {@code spoolDir}, starts mapping it into {@code queue}, then receiving on
   * {@code host:port}.
   *
   * @throws IllegalArgumentException naming the address when it cannot be bound, or the spool's
   *     position file when it is damaged
   */
  public static OtlpIntake start(String host, int port, Path spoolDir, Path queue, Clock clock)
      throws IOException {
    OtlpSpool spool = OtlpSpool.open(spoolDir.resolve(SPOOL_QUEUE));
    SpoolMapper mapper = new SpoolMapper(spool, spoolDir, queue, clock);
    try {
      mapper.start();
      return new OtlpIntake(spool, mapper, OtlpReceiver.start(host, port, spool));
    } catch (IOException | RuntimeException e) {
      mapper.close();
      spool.close();
      if (e instanceof IOException io
          && io.getMessage() != null
          && io.getMessage().startsWith("OTLP spool position")) {
        throw new IllegalArgumentException(io.getMessage(), io);
      }
      throw e;
    }
  }

  /** The receiver's port. */
  public int port() {
    return receiver.port();
  }

  /** The receiver. */
  public OtlpReceiver receiver() {
    return receiver;
  }

  /** The mapper. */
  public SpoolMapper mapper() {
    return mapper;
  }

  @Override
  public void close() {
    receiver.close();
    mapper.close();
    spool.close();
  }
}
