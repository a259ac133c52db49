package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentConfigTest {
  @TempDir Path tmp;

  private final List<String> warnings = new ArrayList<>();

  private AgentConfig load(String args, Properties sys, Map<String, String> env) {
    return AgentConfig.load(args, sys, env, warnings::add);
  }

  @Test
  void defaultsMatchTheSpec() {
    AgentConfig c = load(null, new Properties(), Map.of());
    assertTrue(c.enabled());
    assertEquals(Path.of("./vigil-queue"), c.queueDir());
    assertNull(c.agentName());
    assertTrue(c.includes().isEmpty());
    assertTrue(c.captureArgs());
    assertTrue(c.captureResult());
    assertEquals(4096, c.maxChars());
    assertTrue(c.redaction().isSecretName("X-Api_Key"));
    assertTrue(c.captureTurns());
    assertTrue(warnings.isEmpty());
  }

  @Test
  void turnsCanBeTurnedOff() {
    assertFalse(load("capture.turns=false", new Properties(), Map.of()).captureTurns());
    assertFalse(
        load(null, new Properties(), Map.of("VIGIL_CAPTURE_TURNS", "false")).captureTurns());
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  @Test
  void precedenceIsArgumentThenPropertyThenEnvironmentThenFile() throws Exception {
    Path file = tmp.resolve("v.properties");
    Files.writeString(
        file,
        "vigil.queue.dir=from-file\nagent.name=file-agent\nvigil.capture.max-chars=10\n"
            + "vigil.capture.result=false\n");
    Properties sys = new Properties();
    sys.setProperty("vigil.queue.dir", "from-property");
    sys.setProperty("vigil.agent.name", "property-agent");
    Map<String, String> env =
        Map.of(
            "VIGIL_QUEUE_DIR",
            "from-env",
            "VIGIL_AGENT_NAME",
            "env-agent",
            "VIGIL_CAPTURE_MAX_CHARS",
            "20",
            "VIGIL_CONFIG_FILE",
            file.toString());
    AgentConfig c = load("queue.dir=from-argument", sys, env);
    assertEquals(Path.of("from-argument"), c.queueDir());
    assertEquals("property-agent", c.agentName());
    assertEquals(20, c.maxChars());
    assertFalse(c.captureResult());
    assertTrue(warnings.isEmpty(), warnings.toString());
  }

  @Test
  void agentArgumentCommasInsideValuesStayInTheValue() {
    AgentConfig c =
        load(
            "redact.keys=password,pin,methods.include=a.B[m1,m2];c.D[*],capture.args=false",
            new Properties(),
            Map.of());
    assertEquals(List.of("password", "pin"), c.redaction().keys());
    assertEquals(
        List.of(new MethodInclude("a.B", Set.of("m1", "m2")), new MethodInclude("c.D", Set.of())),
        c.includes());
    assertFalse(c.captureArgs());
  }

  @Test
  void malformedValuesPrintOneLineNamingTheKeyAndUseTheDefault() {
    Properties sys = new Properties();
    sys.setProperty("vigil.capture.max-chars", "0");
    sys.setProperty("vigil.enabled", "yes");
    sys.setProperty("vigil.methods.include", "a.B");
    sys.setProperty("vigil.kinds", "a.B#m=Not A Kind");
    sys.setProperty("vigil.redact.patterns", "([unclosed");
    AgentConfig c = load("nonsense=1", sys, Map.of());
    assertEquals(4096, c.maxChars());
    assertTrue(c.enabled());
    assertTrue(c.includes().isEmpty());
    assertNull(c.kinds().kindOf("a.B", "m"));
    assertEquals(
        AgentConfig.defaultConfig().redaction().patterns().pattern(),
        c.redaction().patterns().pattern());
    assertEquals(6, warnings.size(), warnings.toString());
    for (String key :
        List.of(
            "vigil.nonsense",
            "vigil.capture.max-chars",
            "vigil.enabled",
            "vigil.methods.include",
            "vigil.kinds",
            "vigil.redact.patterns")) {
      assertTrue(warnings.stream().anyMatch(w -> w.contains(key)), key + " in " + warnings);
    }
  }

  @Test
  void unreadableConfigFileIsNamedAndIgnored() {
    AgentConfig c =
        load("config.file=" + tmp.resolve("missing.properties"), new Properties(), Map.of());
    assertEquals(Path.of("./vigil-queue"), c.queueDir());
    assertEquals(1, warnings.size());
    assertTrue(warnings.get(0).contains("missing.properties"));
  }

  @Test
  void environmentNames() {
    assertEquals("VIGIL_CAPTURE_MAX_CHARS", AgentConfig.envName("vigil.capture.max-chars"));
    assertEquals("VIGIL_QUEUE_DIR", AgentConfig.envName("vigil.queue.dir"));
  }
}
