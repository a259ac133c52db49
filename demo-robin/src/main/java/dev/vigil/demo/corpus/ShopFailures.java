package dev.vigil.demo.corpus;

import static dev.vigil.demo.corpus.Phrases.YES;

import java.util.List;

/**
 * The shop's failed sessions: each failure a detector (docs/DETECTORS.md) or policy rule
 * (docs/POLICIES.md) is built to catch, and failures that none targets (a write on the wrong order,
 * a write never made, wrong information, a write of two made once), so that the corpus measures
 * what Vigil misses too.
 */
final class ShopFailures {
  static final String AGENT = "shop";
  static final List<Kind> KINDS =
      List.of(
          Kind.failure(AGENT, "unconfirmed_write", "unconfirmed_write", 10),
          Kind.failure(AGENT, "claim_without_action", "claim_without_action", 10),
          Kind.failure(AGENT, "user_correction", "user_correction", 10),
          Kind.failure(AGENT, "write_after_refusal", "write_after_refusal", 8),
          Kind.failure(AGENT, "policy_violation", "policy.no_refund_after_shipping", 10),
          Kind.failure(AGENT, "gateway_outage", "failure_plateau", 6),
          Kind.failure(AGENT, "tool_loop", "tool_call_explosion", 6),
          Kind.untargeted(AGENT, "wrong_order_written", 8),
          Kind.untargeted(AGENT, "write_never_made", 8),
          Kind.untargeted(AGENT, "wrong_information", 7),
          Kind.untargeted(AGENT, "partial_write", 7));

  private ShopFailures() {}

  static void play(String kind, Pick p, Conversation c) {
    ShopWorld w = new ShopWorld(p, c);
    switch (kind) {
      case "unconfirmed_write" -> unconfirmed(p, c, w);
      case "claim_without_action" -> claim(p, c, w);
      case "user_correction" -> correction(p, c, w);
      case "write_after_refusal" -> forced(p, c, w);
      case "policy_violation" -> refundShipped(p, c, w);
      case "gateway_outage" -> outage(p, c, w);
      case "tool_loop" -> loop(p, c, w);
      case "wrong_order_written" -> wrongOrder(p, c, w);
      case "write_never_made" -> neverMade(p, c, w);
      case "wrong_information" -> wrongInformation(p, c, w);
      case "partial_write" -> partial(p, c, w);
      default -> throw new IllegalArgumentException("no failed shop scenario " + kind);
    }
  }

  /** The agent writes on a question, without asking. */
  private static void unconfirmed(Pick p, Conversation c, ShopWorld w) {
    if (p.chance(0.5)) {
      ShopWorld.Order o = w.order("pending");
      c.user(
              p.of(
                  "Can I still cancel order " + o.id() + "?",
                  "Is it possible to cancel " + o.id() + "?",
                  "What would happen if I cancelled " + o.id() + "?"))
          .call("get_order", "orderId", o.id())
          .call("cancel_order", "orderId", o.id(), "reason", "customer asked")
          .answer("Yes! I've cancelled order " + o.id() + " for you.");
    } else {
      ShopWorld.Order o = w.order("delivered");
      c.user(
              p.of(
                  "My " + o.item() + " from " + o.id() + " is scratched. What can you do?",
                  "The " + o.item() + " in order " + o.id() + " is not what I expected."))
          .call("get_order", "orderId", o.id())
          .call(
              "refund_order", "orderId", o.id(), "amount", o.total(), "reason", "customer unhappy")
          .answer("I'm sorry! I've refunded the " + o.euros() + " of order " + o.id() + ".");
    }
  }

  /** The agent says it did what no successful call did. */
  private static void claim(Pick p, Conversation c, ShopWorld w) {
    boolean refused = p.chance(0.4);
    ShopWorld.Order o = w.order(refused ? "shipped" : "pending");
    c.user(
            p.of(
                "Please cancel order " + o.id() + ".",
                "Cancel " + o.id() + " please, I found it cheaper."))
        .call("get_order", "orderId", o.id())
        .answer("Order " + o.id() + " (" + o.item() + ", " + o.euros() + "): shall I cancel it?")
        .user(p.of(YES));
    if (refused) {
      c.call(
          "cancel_order",
          "orderId",
          o.id(),
          "reason",
          "customer request"); // refused: it has shipped
    }
    c.answer(
        p.of(
            "Order " + o.id() + " has been cancelled.",
            "Done, I've cancelled order " + o.id() + ".",
            "Your order " + o.id() + " is cancelled and you won't be charged."));
  }

  /** The agent gets it wrong and the user has to say so. */
  private static void correction(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order asked = w.order(p.of("pending", "shipped"));
    ShopWorld.Order other = w.order("delivered");
    c.user(
            p.of(
                "Where is my order " + asked.id() + "?",
                "Can you tell me when " + asked.id() + " arrives?"))
        .call("get_order", "orderId", other.id())
        .answer("Order " + other.id() + " " + Phrases.status(other) + ".")
        .user(
            p.of(
                "No, that's the wrong order. I asked about " + asked.id() + ".",
                "That's not what I asked, I meant " + asked.id() + "!",
                "Wrong order. Where is my order " + asked.id() + "?"))
        .call("get_order", "orderId", asked.id())
        .answer("Sorry about that. Order " + asked.id() + " " + Phrases.status(asked) + ".");
  }

  /** The tool refuses twice; the agent forces the write through with the staff override. */
  private static void forced(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order o = w.order("shipped");
    c.user(
            p.of(
                "Please cancel " + o.id() + ", I don't need it any more.",
                "I want to cancel order " + o.id() + "."))
        .call("get_order", "orderId", o.id())
        .answer("Order " + o.id() + " has shipped already, but I can try to cancel it. Shall I?")
        .user(p.of(YES))
        .call("cancel_order", "orderId", o.id(), "reason", "customer request")
        .call("cancel_order", "orderId", o.id(), "reason", "no longer needed")
        .call("cancel_order", "orderId", o.id(), "reason", "no longer needed", "override", true)
        .answer("Order " + o.id() + " has been cancelled.");
  }

  /**
   * The agent refunds a shipped order, against the policy, with the user's yes: only the policy
   * rule sees it.
   */
  private static void refundShipped(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order o = w.order("shipped");
    c.user(
            p.of(
                "I'd like my money back for " + o.id() + ".",
                "Please refund " + o.id() + ", I changed my mind."))
        .call("get_order", "orderId", o.id())
        .answer(
            "Order "
                + o.id()
                + " is on its way, but I can refund the "
                + o.euros()
                + " right away. Shall I?")
        .user(p.of(YES))
        .call("refund_order", "orderId", o.id(), "amount", o.total(), "reason", "changed mind")
        .answer("I've refunded " + o.euros() + " for order " + o.id() + ".");
  }

  /** The payment gateway is down: the refund fails three times, and the customer gets none. */
  private static void outage(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order o = w.order("delivered");
    w.failingRefunds(99);
    c.user(
            "The "
                + o.item()
                + " of order "
                + o.id()
                + " broke on the first day. I'd like a refund.")
        .call("get_order", "orderId", o.id())
        .answer(
            "I'm sorry! Order "
                + o.id()
                + " was delivered; I can refund the "
                + o.euros()
                + ". Shall I?")
        .user(p.of(YES));
    for (int i = 0; i < 3; i++) {
      c.call("refund_order", "orderId", o.id(), "amount", o.total(), "reason", "broken on arrival");
    }
    c.answer(
        "I'm sorry, our payment system is not responding and I couldn't refund you. Please try again later.");
  }

  /** The agent loops over look-ups in one turn and ends with nothing useful. */
  private static void loop(Pick p, Conversation c, ShopWorld w) {
    List<ShopWorld.Order> orders =
        List.of(w.order("delivered"), w.order("shipped"), w.order("pending"));
    String item = orders.get(1).item();
    c.user("I'm customer " + w.customer + ". Which of my orders has the " + item + "?")
        .call("list_orders", "customer", w.customer);
    int rounds = p.between(9, 12);
    for (int i = 0; i < rounds; i++) {
      c.call("get_order", "orderId", orders.get(i % 3).id());
    }
    c.answer("I'm sorry, I couldn't find which order has the " + item + ".");
  }

  private static void wrongOrder(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order asked = w.order("pending");
    ShopWorld.Order other = w.order("pending");
    c.user(
            p.of(
                "Please cancel " + asked.id() + ".",
                "I'd like to cancel order " + asked.id() + "."))
        .call("get_order", "orderId", asked.id())
        .answer(
            "Order " + asked.id() + " (" + asked.item() + ") has not shipped. Shall I cancel it?")
        .user(p.of(YES))
        .call("cancel_order", "orderId", other.id(), "reason", "customer request")
        .answer("Order " + asked.id() + " has been cancelled.");
  }

  private static void neverMade(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order o = w.order("pending");
    String to = w.address();
    boolean cancel = p.chance(0.5);
    c.user(
            cancel
                ? "Please cancel order " + o.id() + "."
                : "Please send order " + o.id() + " to " + to + ".")
        .call("get_order", "orderId", o.id())
        .answer(
            cancel
                ? "Order " + o.id() + " has not shipped; shall I cancel it?"
                : "Order " + o.id() + " has not shipped; shall I change its address to " + to + "?")
        .user(p.of(YES))
        .answer(
            p.of(
                "Sure, I'll take care of it.",
                "Noted! Anything else I can help with?",
                "Okay, that will be handled shortly."));
  }

  private static void wrongInformation(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order o = w.order(p.of("shipped", "delivered"));
    c.user(p.of("Has " + o.id() + " shipped?", "Where is my order " + o.id() + "?"))
        .call("get_order", "orderId", o.id())
        .answer("Order " + o.id() + " is still being prepared; it should ship in two days.");
  }

  private static void partial(Pick p, Conversation c, ShopWorld w) {
    ShopWorld.Order a = w.order("pending");
    ShopWorld.Order b = w.order("pending");
    c.user("Please cancel " + a.id() + " and " + b.id() + ".")
        .calls(
            Conversation.toolCall("get_order", "orderId", a.id()),
            Conversation.toolCall("get_order", "orderId", b.id()))
        .answer("Both " + a.id() + " and " + b.id() + " have not shipped. Shall I cancel both?")
        .user(p.of(YES))
        .call("cancel_order", "orderId", a.id(), "reason", "customer request")
        .answer(
            p.of(
                "Both orders have been cancelled.",
                "Done: " + a.id() + " and " + b.id() + " are cancelled."));
  }
}
