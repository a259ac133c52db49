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
  void treesLoseSecretFieldsAndPatterns() throws Exception {
    JsonNode tree = new ObjectMapper().readTree(
        "{\"user\":\"ada\",\"apiKey\":{\"v\":1},\"list\":[\"sk-abcdefghijklmnopqrstu\",{\"secret\":\"s\"}]}");
    assertEquals("{\"user\":\"ada\",\"apiKey\":\"***\",\"list\":[\"***\",{\"secret\":\"***\"}]}",
        redaction.tree(tree).toString());
  }
}
