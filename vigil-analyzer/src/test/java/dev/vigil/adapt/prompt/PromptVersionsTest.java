package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PromptVersionsTest {
  private static final Instant T = Instant.parse("2026-11-22T12:00:00Z");

  @TempDir Path out;

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private PromptVersions withThree() throws Exception {
    PromptVersions v = PromptVersions.open(out);
    v.keep(utf8("one"), T, PromptVersion.ORIGINAL, "p1", "robin.txt");
    v.keep(utf8("two"), T.plusSeconds(60), PromptVersion.PASS, "p1", "robin.txt");
    v.keep(utf8("three"), T.plusSeconds(120), PromptVersion.PASS, "p2", "robin.txt");
    return v;
  }

  /**
   * Two different contents whose SHA-256 share their first 6 hex digits (found by search,
   * deterministic).
   */
  private static byte[][] collidingPair() {
    Map<String, byte[]> seen = new HashMap<>();
    for (int i = 0; ; i++) {
      byte[] b = utf8("prompt " + i);
      byte[] previous = seen.putIfAbsent(Sha256.hex(b).substring(0, 6), b);
      if (previous != null) {
        return new byte[][] {previous, b};
      }
    }
  }

  @Test
  void keptVersionsAreReadBackFromTheIndex() throws Exception {
    PromptVersions v = withThree();
    PromptVersions reopened = PromptVersions.open(out);
    assertEquals(v.versions(), reopened.versions());
    PromptVersion two = reopened.versions().get(1);
    assertEquals(
        new PromptVersion(
            2,
            "prompt_0002_20261122T120100Z.txt",
            Sha256.hex(utf8("two")),
            3,
            T.plusSeconds(60),
            "pass",
            "p1",
            "robin.txt"),
        two);
    assertArrayEquals(utf8("two"), reopened.read(two));
    assertEquals(3, reopened.latest().orElseThrow().number());
    assertEquals(1, reopened.withSha256(Sha256.hex(utf8("one"))).orElseThrow().number());
  }

  @Test
  void aVersionIsNamedByItsNumber() throws Exception {
    PromptVersions v = withThree();
    assertEquals(2, v.select("2").number());
    assertEquals(2, v.select("0002").number());
    assertEquals(3, v.select(" 3 ").number());
  }

  @Test
  void aVersionIsNamedByASha256PrefixOfAtLeastSixDigitsInAnyCase() throws Exception {
    PromptVersions v = withThree();
    String sha = Sha256.hex(utf8("three"));
    assertEquals(3, v.select(sha.substring(0, 6)).number());
    assertEquals(3, v.select(sha.substring(0, 10).toUpperCase(Locale.ROOT)).number());
    assertEquals(3, v.select(sha).number());
  }

  @Test
  void anAmbiguousPrefixListsTheVersionsItMatches() throws Exception {
    byte[][] pair = collidingPair();
    PromptVersions v = PromptVersions.open(out);
    v.keep(pair[0], T, PromptVersion.PASS, "", "p");
    v.keep(utf8("unrelated"), T, PromptVersion.PASS, "", "p");
    v.keep(pair[1], T, PromptVersion.PASS, "", "p");
    String prefix = Sha256.hex(pair[0]).substring(0, 6);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> v.select(prefix));
    assertTrue(
        e.getMessage().startsWith("\"" + prefix + "\" is ambiguous: it names 2 versions"),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("version 1  sha256 " + Sha256.hex(pair[0]).substring(0, 12)),
        e.getMessage());
    assertTrue(
        e.getMessage().contains("version 3  sha256 " + Sha256.hex(pair[1]).substring(0, 12)),
        e.getMessage());
    assertFalse(e.getMessage().contains("version 2 "), e.getMessage());
    assertEquals(3, v.select(Sha256.hex(pair[1]).substring(0, 12)).number());
  }

  @Test
  void aPrefixOfSeveralVersionsWithTheSameBytesNamesTheNewest() throws Exception {
    PromptVersions v = PromptVersions.open(out);
    v.keep(utf8("same"), T, PromptVersion.ORIGINAL, "", "p");
    v.keep(utf8("other"), T, PromptVersion.PASS, "", "p");
    v.keep(utf8("same"), T, PromptVersion.PASS, "", "p");
    assertEquals(3, v.select(Sha256.hex(utf8("same")).substring(0, 8)).number());
  }

  @Test
  void anUnknownVersionListsEveryKeptVersion() throws Exception {
    PromptVersions v = withThree();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.select("9"));
    assertTrue(
        e.getMessage()
            .startsWith(
                "no kept version is numbered \"9\" in " + out.resolve("prompts/index.jsonl")),
        e.getMessage());
    for (int n = 1; n <= 3; n++) {
      assertTrue(e.getMessage().contains("version " + n + "  sha256 "), e.getMessage());
    }
    IllegalArgumentException hex =
        assertThrows(IllegalArgumentException.class, () -> v.select("abcdef0"));
    assertTrue(
        hex.getMessage().startsWith("no kept version has a SHA-256 starting with \"abcdef0\""),
        hex.getMessage());
    IllegalArgumentException both =
        assertThrows(IllegalArgumentException.class, () -> v.select("123456"));
    assertTrue(
        both.getMessage()
            .startsWith("no kept version is numbered or has a SHA-256 starting with \"123456\""),
        both.getMessage());
    for (String bad : new String[] {"latest", "abc12", "-1", "", "12 34"}) {
      IllegalArgumentException b =
          assertThrows(IllegalArgumentException.class, () -> v.select(bad));
      assertTrue(
          b.getMessage()
              .contains(
                  "is neither a version number nor a SHA-256 prefix of at least 6 hex " + "digits"),
          b.getMessage());
    }
  }

  @Test
  void noVersionsIsSaidPlainly() throws Exception {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> PromptVersions.open(out).select("1"));
    assertEquals(
        "no prompt versions are kept in "
            + out.resolve("prompts")
            + "; a run with --prompt keeps them",
        e.getMessage());
  }

  @Test
  void anAlteredOrMissingKeptFileIsNamed() throws Exception {
    PromptVersions v = withThree();
    PromptVersion two = v.versions().get(1);
    Files.writeString(two.path(v.dir()), "tampered");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> v.read(two));
    assertTrue(
        e.getMessage()
            .startsWith(
                two.path(v.dir())
                    + " (version 2) has SHA-256 "
                    + Sha256.hex(utf8("tampered"))
                    + " but "),
        e.getMessage());
    assertTrue(e.getMessage().contains("the kept file was altered"), e.getMessage());
    Files.delete(two.path(v.dir()));
    IllegalArgumentException gone = assertThrows(IllegalArgumentException.class, () -> v.read(two));
    assertTrue(gone.getMessage().contains("(version 2) is missing"), gone.getMessage());
  }

  @Test
  void aBadIndexLineIsNamedWithItsNumber() throws Exception {
    withThree();
    Path index = out.resolve("prompts/index.jsonl");
    String good = Files.readString(index);
    String sha = Sha256.hex(utf8("x"));
    Map<String, String> bad =
        Map.of(
            "not json",
            "not JSON",
            "{\"file\":\"a.txt\"}",
            "version is missing",
            "[1]",
            "not a JSON object",
            "{\"version\":0,\"file\":\"a.txt\",\"sha256\":\""
                + sha
                + "\",\"created\":\"2026-11-22T12:00:00Z\"}",
            "version 0 is not a positive whole number",
            "{\"version\":4,\"file\":\"../etc/passwd\",\"sha256\":\""
                + sha
                + "\",\"created\":\"2026-11-22T12:00:00Z\"}",
            "file \"../etc/passwd\" is not a file name inside prompts",
            "{\"version\":4,\"file\":\"a.txt\",\"sha256\":\"ABC\",\"created\":\"2026-11-22T12:00:00Z\"}",
            "sha256 \"ABC\" is not 64 lower-case hex digits",
            "{\"version\":4,\"file\":\"a.txt\",\"sha256\":\""
                + sha
                + "\",\"created\":\"yesterday\"}",
            "created \"yesterday\" is not an ISO-8601 instant",
            "{\"version\":2,\"file\":\"a.txt\",\"sha256\":\""
                + sha
                + "\",\"created\":\"2026-11-22T12:00:00Z\"}",
            "version 2 is listed twice");
    for (Map.Entry<String, String> e : bad.entrySet()) {
      Files.writeString(index, good + e.getKey() + "\n");
      IllegalArgumentException x =
          assertThrows(IllegalArgumentException.class, () -> PromptVersions.open(out));
      assertTrue(x.getMessage().startsWith(index + " line 4: " + e.getValue()), x.getMessage());
    }
  }
}
