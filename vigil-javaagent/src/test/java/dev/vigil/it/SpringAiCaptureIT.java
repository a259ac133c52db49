package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spring AI's MethodToolCallback, called directly and through the tool-calling manager: one event
 * per call.
 */
class SpringAiCaptureIT {
  @TempDir Path tmp;

  @Test
  void oneEventPerCallWithItsId() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, "dev.vigil.it.apps.SpringAiApp");
    ChildJvm.Run with =
        ChildJvm.run(ChildJvm.java(), "queue.dir=" + queue, cp, "dev.vigil.it.apps.SpringAiApp");
    assertEquals(0, without.exit(), without.stderr());
    assertEquals(0, with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(4, events.size(), events::toString);
    assertTrue(
        events.stream()
            .allMatch(e -> e.kind().equals("tool.current_weather") && e.status().equals("ok")));
    assertEquals(
        List.of("Paris", "Rome", "Oslo", "Bergen"),
        events.stream().map(e -> e.payload().path("args").path("city").asText()).toList());
    assertEquals(
        "dev.vigil.it.apps.SpringAiApp$WeatherTools",
        events.get(0).payload().path("class").asText());
    // called directly, there is no model id: Vigil gives each call its own
    assertTrue(events.get(0).callId().startsWith("vigil-"), events.get(0).toString());
    assertNotEquals(events.get(0).callId(), events.get(1).callId());
    // run by Spring AI's tool-calling manager: the model's ids
    assertEquals("model_call_a", events.get(2).callId());
    assertEquals("model_call_b", events.get(3).callId());
  }
}
