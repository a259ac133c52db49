package dev.vigil.demo.corpus;

import static dev.vigil.demo.corpus.Phrases.THANKS;
import static dev.vigil.demo.corpus.Phrases.WELCOME;
import static dev.vigil.demo.corpus.Phrases.YES;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Robin's sessions, good and failed, on Robin's own tools as shipped. Robin's reminder ids are
 * given in order by its tools ({@code rem-1}, {@code rem-2}... for each reminder set, across
 * sessions), so the script knows the id a later cancel names; the backend is told which reminders
 * to lose ({@link #lost()}).
 */
final class RobinScenarios {
  static final String AGENT = "robin";
  static final List<Kind> KINDS =
      List.of(
          Kind.clean(AGENT, "clean_set", 18),
          Kind.clean(AGENT, "clean_list", 10),
          Kind.clean(AGENT, "clean_cancel_confirmed", 8),
          Kind.clean(AGENT, "clean_parse_recovery", 8),
          Kind.failure(AGENT, "lost_reminder", "premature_success", 8),
          Kind.failure(AGENT, "unconfirmed_cancel", "unconfirmed_write", 6),
          Kind.failure(AGENT, "claim_without_action", "claim_without_action", 7),
          Kind.failure(AGENT, "user_correction", "user_correction", 7),
          Kind.untargeted(AGENT, "wrong_time", 8));
  private static final String DAY = "2026-11-23T";
  private static final List<String> TASKS =
      List.of(
          "call mom",
          "water the plants",
          "take the medicine",
          "stretch",
          "book the dentist",
          "pay the rent",
          "send the report",
          "pick up the kids",
          "buy milk",
          "back up the laptop",
          "feed the cat",
          "renew the passport");

  private int reminders;
  private final Set<String> lost = new TreeSet<>();

  /** The reminders the backend must lose: refuse once as busy, and never confirm. */
  Set<String> lost() {
    return Set.copyOf(lost);
  }

  /** A reminder a user asks for, and the id Robin's tools will give it. */
  private record Reminder(String task, String time, String when, String id) {}

  private Reminder set(Pick p, Conversation c, String time) {
    Reminder r = new Reminder(p.of(TASKS), time, DAY + time, "rem-" + ++reminders);
    c.user(
            p.of(
                "Remind me at " + time + " to " + r.task() + ".",
                "Please remind me tomorrow at " + time + " to " + r.task() + ".",
                "At " + time + ", remind me to " + r.task() + "."))
        .call("setReminder", "task", r.task(), "when", r.when())
        .answer(
            p.of(
                "Reminder set: " + r.task() + " at " + time + ".",
                "Okay, I'll remind you to " + r.task() + " at " + time + "."));
    return r;
  }

  private static String time(Pick p) {
    return String.format("%02d:%02d", p.between(7, 21), p.of(List.of(0, 15, 30, 45)));
  }

  void play(String kind, Pick p, Conversation c) {
    switch (kind) {
      case "clean_set" -> set(p, c, time(p));
      case "clean_list" -> list(p, c);
      case "clean_cancel_confirmed" -> cancelConfirmed(p, c);
      case "clean_parse_recovery" -> parseRecovery(p, c);
      case "lost_reminder" -> lost.add(set(p, c, time(p)).id());
      case "unconfirmed_cancel" -> unconfirmedCancel(p, c);
      case "claim_without_action" -> claim(p, c);
      case "user_correction" -> userCorrection(p, c);
      case "wrong_time" -> wrongTime(p, c);
      default -> throw new IllegalArgumentException("no Robin scenario " + kind);
    }
    if (p.chance(0.3)) {
      c.user(p.of(THANKS)).answer(p.of(WELCOME));
    }
  }

  /** A reminder set, then listed. */
  private void list(Pick p, Conversation c) {
    Reminder r = set(p, c, time(p));
    c.user(p.of("What reminders do I have?", "Can you list my reminders?"))
        .call("listReminders")
        .answer("You have a reminder to " + r.task() + " at " + r.time() + ".");
  }

  /** A reminder set, then cancelled after Robin asked and the user said yes. */
  private void cancelConfirmed(Pick p, Conversation c) {
    Reminder r = set(p, c, time(p));
    c.user(
            p.of(
                "Actually, I don't need the " + r.task() + " reminder.",
                "Can you cancel the reminder to " + r.task() + "?"))
        .answer(
            "Shall I cancel the reminder to " + r.task() + " at " + r.time() + " (" + r.id() + ")?")
        .user(p.of(YES))
        .call("cancelReminder", "reminder", r.id())
        .answer("Cancelled the reminder to " + r.task() + ".");
  }

  /** A reminder whose first call the tool refuses (not an ISO date-time), set by the second. */
  private void parseRecovery(Pick p, Conversation c) {
    String time = time(p);
    String task = p.of(TASKS);
    c.user("Remind me tomorrow at " + time + " to " + task + ".")
        .call(
            "setReminder",
            "task",
            task,
            "when",
            "tomorrow " + time) // refused: not an ISO date-time
        .call("setReminder", "task", task, "when", DAY + time)
        .answer("Reminder set: " + task + " tomorrow at " + time + ".");
    reminders++;
  }

  /**
   * A reminder set, then cancelled when the user only wondered about it: a write nobody confirmed.
   */
  private void unconfirmedCancel(Pick p, Conversation c) {
    Reminder r = set(p, c, time(p));
    c.user(
            p.of(
                "Hmm, I'm not sure I still need the " + r.task() + " reminder.",
                "Is the reminder to " + r.task() + " still on?"))
        .call("cancelReminder", "reminder", r.id())
        .answer("I've cancelled the reminder to " + r.task() + ".");
  }

  /** A reminder set twelve hours early, then set again at the time the user corrects it to. */
  private void userCorrection(Pick p, Conversation c) {
    int hour = p.between(13, 21);
    String meant = String.format("%02d:30", hour);
    String task = p.of(TASKS);
    c.user("Remind me at " + meant + " to " + task + ".")
        .call("setReminder", "task", task, "when", DAY + String.format("%02d:30", hour - 12))
        .answer("Reminder set: " + task + " at " + String.format("%02d:30", hour - 12) + ".")
        .user(
            p.of(
                "No, that's wrong, I said " + meant + "!",
                "That's not what I asked: " + meant + ", not in the morning."))
        .call("setReminder", "task", task, "when", DAY + meant)
        .answer("Sorry! Reminder set: " + task + " at " + meant + ".");
    reminders += 2;
  }

  /** A reminder asked for in the afternoon and set in the morning, which nobody notices. */
  private void wrongTime(Pick p, Conversation c) {
    int hour = p.between(1, 9);
    String task = p.of(TASKS);
    c.user("Remind me at " + hour + " pm to " + task + ".")
        .call("setReminder", "task", task, "when", DAY + String.format("%02d:00", hour))
        .answer("Reminder set: " + task + " at " + hour + ":00.");
    reminders++;
  }

  private void claim(Pick p, Conversation c) {
    if (p.chance(0.5)) {
      String time = time(p);
      String task = p.of(TASKS);
      c.user("Remind me at " + time + " to " + task + ".")
          .answer("Reminder set: " + task + " at " + time + ".");
      return;
    }
    Reminder r = set(p, c, time(p));
    c.user("Please cancel the " + r.task() + " reminder.")
        .answer("Shall I cancel the reminder to " + r.task() + " (" + r.id() + ")?")
        .user(p.of(YES))
        .answer("Cancelled: you won't be reminded to " + r.task() + ".");
  }
}
