package dev.vigil.demo.corpus;

/** What users of the corpus say, in several wordings each, as real users vary. */
final class Phrases {
  /**
   * A user's yes to a proposed write. Some wordings are outside the default confirmation words of
   * {@code unconfirmed_write} ("sure", "ok", "yep"), as real users' are.
   */
  static final String[] YES = {
    "Yes, please.",
    "Yes, go ahead.",
    "Confirm.",
    "Yes, confirm.",
    "Go ahead.",
    "Yes please, proceed.",
    "Sure, do it.",
    "OK, please do.",
    "Yep.",
    "That's right, do it."
  };

  /** A user's thanks at the end. */
  static final String[] THANKS = {
    "Thanks!", "Great, thank you.", "Perfect, thanks a lot.", "Thank you!"
  };

  /** The agent's answer to thanks. */
  static final String[] WELCOME = {
    "You're welcome!", "Happy to help!", "Glad I could help. Have a nice day!"
  };

  private Phrases() {}

  /** How the shop agent describes an order's status. */
  static String status(ShopWorld.Order o) {
    return switch (o.status()) {
      case "pending" -> "is being prepared and has not shipped yet";
      case "shipped" -> "has shipped and is on its way to " + o.address();
      case "delivered" -> "was delivered to " + o.address();
      default -> "is " + o.status();
    };
  }
}
