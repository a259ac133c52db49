package dev.vigil.cli;

import java.util.regex.Pattern;

/**
 * Checks of the Kafka options shared by {@code ship} and {@code watch --bootstrap}; a bad value is
 * exit 2.
 */
final class KafkaOptions {
  private static final Pattern HOST_PORT = Pattern.compile("[^\\s,:]+:\\d{1,5}");
  private static final Pattern TOPIC = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private KafkaOptions() {}

  /** A comma-separated list of HOST:PORT. */
  static void checkBootstrap(String bootstrap) {
    for (String server : bootstrap.split(",", -1)) {
      if (!HOST_PORT.matcher(server.trim()).matches()) {
        throw new BadInputException(
            "--bootstrap \""
                + bootstrap
                + "\": \""
                + server
                + "\" is not HOST:PORT; give "
                + "Kafka's bootstrap servers as HOST:PORT[,HOST:PORT...]");
      }
    }
  }

  /** A name Kafka accepts for a topic or a group. */
  static void checkTopic(String name, String option) {
    if (!TOPIC.matcher(name).matches() || name.equals(".") || name.equals("..")) {
      throw new BadInputException(
          option
              + " \""
              + name
              + "\" is not a valid Kafka name (letters, digits, '.', "
              + "'_' and '-', at most 249)");
    }
  }
}
