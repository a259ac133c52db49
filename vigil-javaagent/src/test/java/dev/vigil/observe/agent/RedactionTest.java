package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class RedactionTest {
  private final Redaction redaction = AgentConfig.defaultConfig().redaction();

  @Test
  void secretNamesAnyCase() {
    assertTrue(redaction.isSecretName("password"));
    assertTrue(redaction.isSecretName("DB_PASSWORD"));
    assertTrue(redaction.isSecretName("Authorization"));
    assertTrue(redaction.isSecretName("githubToken"));
    assertFalse(redaction.isSecretName("task"));
    assertFalse(redaction.isSecretName(null));
  }

  @Test
  void defaultPatterns() {
    assertEquals("key *** here", redaction.text("key sk-abcdefghijklmnopqrstu here"));
    assertEquals("Authorization: ***", redaction.text("Authorization: Bearer eyJhbGciOi.J9.abc"));
    assertEquals("aws ***", redaction.text("aws AKIAIOSFODNN7EXAMPLE"));
    assertEquals("gh ***", redaction.text("gh ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
    assertEquals("in 30 minutes", redaction.text("in 30 minutes"));
  }

  @Test
  void quickCheckOfTheDefaultShapesGivesWhatTheFullSearchGives() {
    java.util.regex.Pattern full = java.util.regex.Pattern.compile(Redaction.DEFAULT_PATTERNS);
    for (String s :
        java.util.List.of(
            "in 30 minutes",
            "night flight",
            "tea at five, high light",
            "sk-short",
            "my sk-abcdefghijklmnopqrstu",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "gh_x",
            "AIzaSyA-abcdefghijklmnopq" + "rstuvwxyz012345678",
            "xoxb-1234567890-abc",
            "BEARER abc.def",
            "bearer",
            "beArEr x",
            "Bear with me",
            "AKIAIOSFODNN7EXAMPLE",
            "ASIAIOSFODNN7EXAMPLE",
            "akiaiosfodnn7example",
            "asiaiosfodnn7examplex",
            "asia trip",
            "SK-ABCDEFGHIJKLMNOPQRSTU",
            "XOXB-1234567890-abc",
            "GHP_abcdefghijklmnopqrstuvwxyz0123456789",
            "aizasya-abcdefghijklmnopqrstuvwxyz012345678",
            "é ß 日本")) {
      assertEquals(full.matcher(s).replaceAll(Redaction.MASK), redaction.text(s), s);
    }
    assertFalse(Redaction.mayHoldDefaultShape("Reminder set in 30 minutes x12"));
    assertTrue(Redaction.mayHoldDefaultShape("Authorization: Bearer x"));
  }

  @Test
  void theQuickCheckNeverMissesAStringTheFullSearchWouldChange() {
    java.util.regex.Pattern full = java.util.regex.Pattern.compile(Redaction.DEFAULT_PATTERNS);
    String[] parts = {
      "sk-",
      "SK-",
      "gh",
      "p",
      "_",
      "AIza",
      "aiza",
      "xox",
      "XOX",
      "xoxb-",
      "bearer ",
      "BeArEr ",
      "Bear",
      "akia",
      "AKIA",
      "asia",
      "AsIa",
      "A",
      "a",
      "k",
      "K",
      "s",
      "i",
      "I",
      "b",
      "e",
      "é",
      " ",
      "-",
      "0123456789",
      "ABCDEFGHIJKLMNOP",
      "abcdefghijklmnopqrstuvwxyz",
      "\u212A",
      "\u017F"
    };
    java.util.SplittableRandom random = new java.util.SplittableRandom(19);
    for (int i = 0; i < 200_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int p = random.nextInt(1, 9); p > 0; p--) {
        sb.append(parts[random.nextInt(parts.length)]);
      }
      String s = sb.toString();
      if (full.matcher(s).find()) {
        assertTrue(Redaction.mayHoldDefaultShape(s), s);
      }
      assertEquals(full.matcher(s).replaceAll(Redaction.MASK), redaction.text(s), s);
      // written in one pass when nothing would change: the same bytes as the redacted text's
      dev.vigil.observe.SmileOut fused = new dev.vigil.observe.SmileOut();
      if (!redaction.writeUnchanged(s, fused)) {
        assertEquals(0, fused.length(), s);
        fused.string(redaction.text(s));
      }
      dev.vigil.observe.SmileOut plain = new dev.vigil.observe.SmileOut();
      plain.string(redaction.text(s));
      org.junit.jupiter.api.Assertions.assertArrayEquals(
          plain.toByteArray(), fused.toByteArray(), s);
    }
  }

  @Test
  void treesLoseSecretFieldsAndPatterns() throws Exception {
    JsonNode tree =
        new ObjectMapper()
            .readTree(
                "{\"user\":\"ada\",\"apiKey\":{\"v\":1},\"list\":[\"sk-abcdefghijklmnopqrstu\",{\"secret\":\"s\"}]}");
    assertEquals(
        "{\"user\":\"ada\",\"apiKey\":\"***\",\"list\":[\"***\",{\"secret\":\"***\"}]}",
        TreeRedaction.apply(redaction, tree).toString());
  }
}
