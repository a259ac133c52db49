package dev.vigil.cli;

import dev.vigil.kafka.ShipPosition;
import dev.vigil.kafka.Shipper;
import dev.vigil.observe.EventQueues;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ship}: forwards a local queue to Kafka, exactly once, resuming where it committed
 * (docs/KAFKA.md).
 */
@Command(
    name = "ship",
    header = "Forwards the events of a local queue to Kafka as they arrive.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Forwards the events of a local Vigil queue to Kafka as they arrive: each event as",
      "its JSON line (docs/DESIGN.md#the-event), key = agent, exactly once: each batch is one",
      "Kafka transaction that also records the batch's end in the topic <topic>.ship, and ship",
      "resumes after the last batch committed there (a copy is kept beside the queue,",
      "<queue>.ship-<topic>.json). When Kafka cannot be reached the position stays, the queue",
      "is the buffer, and ship retries with backoff (one line a minute). SIGTERM or SIGINT:",
      "exits 0 with the position kept. Read the topic with isolation.level=read_committed."
    })
final class ShipCommand extends VigilCommand {
  @Option(
      names = "--queue",
      paramLabel = "DIR",
      required = true,
      description = "The Chronicle queue the Vigil agent writes.")
  Path queue;

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT[,HOST:PORT...]",
      required = true,
      description = "Kafka's bootstrap servers.")
  String bootstrap;

  @Option(
      names = "--topic",
      paramLabel = "TOPIC",
      defaultValue = "vigil.events",
      description = "The topic the events go to (default: ${DEFAULT-VALUE}).")
  String topic;

  @Option(
      names = "--position",
      paramLabel = "FILE",
      description =
          "Where the position is kept (default: beside the queue, <queue>.ship-<topic>.json).")
  Path positionFile;

  @Option(
      names = "--ship-id",
      paramLabel = "ID",
      description =
          "This ship's identity in Kafka, one per queue shipped; a ship restarted with the same id"
              + " resumes where it committed, and fences an older one still running (default:"
              + " the host's name and the queue's path).")
  String shipId;

  private final Clock clock;

  ShipCommand() {
    this(Clock.systemUTC());
  }

  ShipCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  // the signal handlers are the try resource for its scope only: installed before the body, removed
  // after it
  @SuppressWarnings("try")
  public Integer call() throws IOException {
    KafkaOptions.checkBootstrap(bootstrap);
    KafkaOptions.checkTopic(topic, "--topic");
    Shipper shipper;
    try {
      EventQueues.checkIsQueue(queue);
      ShipPosition position = ShipPosition.of(queue, topic, positionFile);
      position.read(); // a position file that is not ship's stops here, naming it
      String id = shipId != null ? shipId : Shipper.defaultId(queue);
      if (id.isBlank()) {
        throw new IllegalArgumentException("--ship-id is blank");
      }
      shipper = new Shipper(queue, bootstrap, topic, id, position, clock, out(), err());
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    try (StopSignals signals = StopSignals.install(shipper::stop)) {
      shipper.run();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    return EXIT_OK;
  }
}
