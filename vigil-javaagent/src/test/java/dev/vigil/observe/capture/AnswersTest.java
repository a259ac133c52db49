package dev.vigil.observe.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.service.Result;
import dev.vigil.observe.agent.Frameworks;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.ResponseEntity;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import reactor.core.publisher.Flux;

class AnswersTest {
  private static final Site SITE = new Site(0, Role.TURN, "X", "invoke", List.of(), null, null);
  private final Answers answers =
      new Answers(new FrameworkAccess(), new ValueCapture(), Frameworks.all());

  record Booking(String city, int nights) {}

  record Stay(List<String> cities) {}

  private static ChatResponse springAi(String text) {
    return new ChatResponse(
        List.of(new Generation(AssistantMessage.builder().content(text).build())));
  }

  @Test
  void aStringIsTheAnswer() {
    assertEquals("done", answers.text("done", SITE));
    assertNull(answers.text(null, SITE), "a void method answers nothing");
  }

  @Test
  void langChain4jResultsAreUnwrappedToTheirText() {
    assertEquals("done", answers.text(AiMessage.from("done"), SITE));
    assertEquals("done", answers.text(Result.builder().content("done").build(), SITE));
    assertEquals(
        "done",
        answers.text(
            dev.langchain4j.model.chat.response.ChatResponse.builder()
                .aiMessage(AiMessage.from("done"))
                .build(),
            SITE));
  }

  @Test
  void springAiResponsesAreUnwrappedToTheirText() {
    assertEquals("done", answers.text(springAi("done"), SITE));
    assertEquals("done", answers.text(new ChatClientResponse(springAi("done"), Map.of()), SITE));
    assertEquals(
        "done", answers.text(new ResponseEntity<>(springAi("done"), new Booking("Oslo", 2)), SITE));
  }

  @Test
  void structuredOutputThatCannotChangeIsKeptAsItIs() {
    // a record of strings and numbers: the writer writes it as JSON (RecordValuesTest)
    Booking booking = new Booking("Oslo", 2);
    assertSame(booking, answers.text(booking, SITE));
    assertSame(booking, answers.text(Result.builder().content(booking).build(), SITE));
  }

  @Test
  void otherStructuredOutputIsTakenAtTheCall() throws Exception {
    List<String> cities = new ArrayList<>(List.of("Oslo"));
    Object text = answers.text(new Stay(cities), SITE);
    cities.add("Bergen");
    Copy copy = assertInstanceOf(Copy.class, text);
    assertEquals("{\"cities\":[\"Oslo\"]}", new ObjectMapper().writeValueAsString(copy.rebuilt()));
  }

  @Test
  void streamsAndFuturesArePending() {
    assertSame(Answers.PENDING, answers.text(new CompletableFuture<String>(), SITE));
    assertSame(Answers.PENDING, answers.text(Flux.just("a", "b"), SITE));
  }
}
