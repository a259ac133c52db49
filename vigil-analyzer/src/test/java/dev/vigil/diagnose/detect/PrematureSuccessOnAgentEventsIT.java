package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.it.ChildJvm;
import dev.vigil.observe.Event;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code premature_success} on the javaagent's real events: a LangChain4j tool whose result carries
 * the reminder id, and the backend's receipt method captured through {@code vigil.methods.include}
 * and renamed with {@code vigil.kinds}. The application orders answers and receipts itself ({@code
 * ReceiptApp}), so what is premature does not depend on how fast the machine is.
 */
class PrematureSuccessOnAgentEventsIT {
  @TempDir Path tmp;

  private List<WindowEvent> capture(String mode) throws Exception {
    Path queue = tmp.resolve("queue-" + mode);
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            null,
            List.of(
                "-Dvigil.queue.dir=" + queue,
                "-Dvigil.methods.include=dev.vigil.it.apps.ReceiptApp$Backend[confirm]",
                "-Dvigil.kinds=dev.vigil.it.apps.ReceiptApp$Backend#confirm=reminder.receipt",
                "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.ReceiptApp",
            mode);
    assertEquals(0, run.exit(), run.stderr());
    List<Event> events = ChildJvm.readQueue(queue);
    List<WindowEvent> window = new ArrayList<>();
    for (Event e : events) {
      window.add(new WindowEvent(e, e.seq(), e.seq(), false));
    }
    window.sort((a, b) -> a.event().ts().compareTo(b.event().ts()));
    return window;
  }

  @Test
  void aToolThatAnswersBeforeItsReceiptIsPrematureEveryTime() throws Exception {
    List<WindowEvent> window = capture("premature");
    assertEquals(
        3, window.stream().filter(w -> w.event().kind().equals("tool.set_reminder")).count());
    assertEquals(
        3, window.stream().filter(w -> w.event().kind().equals("reminder.receipt")).count());

    Detection d = new PrematureSuccess(DetectorSettings.DEFAULTS).detect(window);
    assertEquals(3, d.count());
    assertEquals(3, d.evidence().get("confirmed_late").asInt());
    assertTrue(d.evidence().get("mean_receipt_lag_sec").asDouble() > 0, d.evidence().toString());
    for (JsonNode instance : d.evidence().get("instances")) {
      assertTrue(instance.get("id").asText().startsWith("r-"), instance.toString());
    }
    assertEquals(
        List.of("tool.set_reminder.premature"),
        d.derived().stream().map(x -> x.event().kind()).distinct().toList());
  }

  @Test
  void aToolThatWaitsForItsReceiptIsNotPremature() throws Exception {
    List<WindowEvent> window = capture("gated");
    assertEquals(
        3, window.stream().filter(w -> w.event().kind().equals("reminder.receipt")).count());
    Detection d = new PrematureSuccess(DetectorSettings.DEFAULTS).detect(window);
    assertEquals(0, d.count(), d.evidence().toString());
  }
}
