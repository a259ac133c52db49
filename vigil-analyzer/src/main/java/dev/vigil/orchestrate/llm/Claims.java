package dev.vigil.orchestrate.llm;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether an answer tells the user a write is done: a past participle of a write verb ("cancelled", "has been
 * booked", "I've updated", "I've set"). Only picks the turns the judge looks at, so it errs on the side of asking:
 * "not cancelled" counts too, and the model decides.
 */
final class Claims {
  private static final Pattern CLAIM = Pattern.compile(
      "\\b(booked|cancell?ed|created|updated|modified|deleted|removed|sent|paid|transferred|submitted|refunded"
          + "|exchanged|added)\\b|\\b(?:have|has|been)\\s+(set)\\b|['\u2019]ve\\s+(set)\\b",
      Pattern.CASE_INSENSITIVE);

  private Claims() {}

  /** The claiming word in {@code answer}, lower case, or null when it claims no write. */
  static String in(String answer) {
    if (answer == null) {
      return null;
    }
    Matcher m = CLAIM.matcher(answer);
    if (!m.find()) {
      return null;
    }
    for (int g = 1; g <= m.groupCount(); g++) {
      if (m.group(g) != null) {
        return m.group(g).toLowerCase(Locale.ROOT);
      }
    }
    return m.group().toLowerCase(Locale.ROOT);
  }
}
