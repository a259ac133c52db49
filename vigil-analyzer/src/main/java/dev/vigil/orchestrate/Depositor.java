package dev.vigil.orchestrate;

import dev.vigil.appraise.Appraisal;
import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.observe.Event;
import java.io.IOException;

/**
 * Appraise, make the row, deposit (docs/DESIGN.md#appraisal, docs/DESIGN.md#the-emobank): the one
 * place an event becomes an EmoBank row, used by a pass and by {@code watch}'s tail alike. Keeps
 * one {@link Appraiser}, so its count of bad delay values covers every event it appraised.
 */
public final class Depositor {
  private final Appraiser appraiser;

  /** A depositor with the appraisal table of these rules. */
  public Depositor(Rules rules) {
    this.appraiser = rules.appraisal().newAppraiser();
  }

  /** The row an event becomes: its appraisal at the event's time. */
  public EmotionRow row(Event event) {
    Appraisal a = appraiser.appraise(event);
    return EmotionRow.of(event.ts(), a.emotion(), a.intensity(), a.valence(), a.cause());
  }

  /**
   * Deposits an event under its identity unless the bank holds it already. A raw {@code turn.*}
   * event is context ({@link Appraiser#isContext}): it deposits nothing; a detector's derived event
   * always deposits.
   *
   * @param derived whether a detector derived the event
   * @return the row deposited, or null when the bank already held the identity or the event is
   *     context
   */
  public EmotionRow deposit(EmoBank bank, long identity, Event event, boolean derived)
      throws IOException {
    if ((!derived && Appraiser.isContext(event)) || bank.isDeposited(identity)) {
      return null;
    }
    EmotionRow row = row(event);
    bank.deposit(identity, row);
    return row;
  }

  /** Events whose {@code delayed_by_sec} was not a number, appraised so far (ignored, counted). */
  public long badDelayValues() {
    return appraiser.badDelayValues();
  }
}
