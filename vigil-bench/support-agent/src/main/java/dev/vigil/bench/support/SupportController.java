package dev.vigil.bench.support;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /support?conversation=...&message=...}: the assistant's answer as plain text. */
@RestController
class SupportController {
  private final SupportAgent agent;

  SupportController(SupportAgent agent) {
    this.agent = agent;
  }

  @GetMapping("/support")
  String support(@RequestParam String conversation, @RequestParam String message) {
    return agent.answer(conversation, message);
  }
}
