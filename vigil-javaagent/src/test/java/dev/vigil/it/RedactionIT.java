package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.vigil.observe.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A secret passed as an argument never appears in the queue's raw bytes. */
class RedactionIT {
  private static final String PASSWORD = "hunter2-correct-horse";
  private static final String BASIC = "QWxhZGRpbjpvcGVuIHNlc2FtZQ";
  private static final String API_KEY = "sk-proj4f7c1d2e9b8a7f6e5d4c3b2a1";

  @TempDir Path tmp;

  @Test
  void secretsNeverReachTheQueue() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.RedactionApp$Account[*]",
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.RedactionApp",
            PASSWORD,
            BASIC,
            API_KEY);
    assertEquals(0, run.exit(), run.stderr());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(3, events.size());
    assertEquals("***", events.get(0).payload().path("args").path("password").asText());
    assertEquals("ada", events.get(0).payload().path("args").path("user").asText());
    assertEquals(
        "***", events.get(1).payload().path("args").path("headers").path("Authorization").asText());
    assertEquals(
        "text/plain", events.get(1).payload().path("args").path("headers").path("Accept").asText());
    assertEquals(
        "my key is *** keep it safe", events.get(2).payload().path("args").path("text").asText());

    try (Stream<Path> files = Files.walk(queue)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String raw = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
        for (String secret : List.of(PASSWORD, BASIC, API_KEY)) {
          assertFalse(raw.contains(secret), secret + " found in " + f);
        }
      }
    }
  }
}
