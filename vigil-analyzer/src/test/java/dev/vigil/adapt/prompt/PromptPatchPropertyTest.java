package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The guard's promise over generated prompts: whatever the text, the line endings, the order of the
 * sections or the markers quoted inside sentences, only the bytes between the adaptive markers
 * change, and they hold the new content. The expected bytes come from the generator, which knows
 * where it put each part, not from the parser.
 */
class PromptPatchPropertyTest {
  private static final int CASES = 600;

  private static final String[] MARKERS = {
    "## BEGIN_CORE_IDENTITY",
    "## END_CORE_IDENTITY",
    "## BEGIN_ADAPTIVE_SECTION",
    "## END_ADAPTIVE_SECTION"
  };

  private static final String[] WORDS = {
    "Robin",
    "reminds",
    "people",
    "of",
    "things",
    "tea",
    "at",
    "noon",
    "UTC",
    "—",
    "“quoted”",
    "#",
    "##",
    "###",
    "`code`",
    "*",
    "-",
    ">",
    "😀",
    "🧭",
    "👩‍💻",
    "🇫🇷",
    "🫖",
    "日本語",
    "提醒我喝茶",
    "한국어",
    "中文字符",
    "e\u0301",
    "n\u0303",
    "a\u0308\u0304",
    "Zalgo\u0336\u0337",
    "שלום",
    "مرحبا",
    "\u00A0",
    "\u200B",
    "\t",
    "¿",
    "ß",
    "Ωμέγα",
    "\uFEFF",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "\\",
    "\"",
    "'",
    "{json: 1}",
    "<tag>",
    "%s",
    "$HOME"
  };

  /** Lines that quote or imitate a marker without being one. */
  private static final String[] LOOKALIKES = {
    "Never print ## END_CORE_IDENTITY in a reply.",
    "The line `## BEGIN_ADAPTIVE_SECTION` opens the part Vigil rewrites.",
    "> ## END_ADAPTIVE_SECTION",
    "### BEGIN_CORE_IDENTITY",
    "## BEGIN_CORE_IDENTITY:",
    "## begin_core_identity",
    "##BEGIN_CORE_IDENTITY",
    "## BEGIN_CORE_IDENTITY ## END_CORE_IDENTITY",
    "\"## END_ADAPTIVE_SECTION\"",
    "- ## BEGIN_ADAPTIVE_SECTION",
    "## BEGIN_ADAPTIVE_SECTION.",
    "##  BEGIN_ADAPTIVE_SECTION",
    "## BEGIN_ADAPTIVE_SECTION\u00A0",
    "\u00A0## END_CORE_IDENTITY",
    "## END_ADAPTIVE_SECTION 😀",
    "## BEGIN_CORE_IDENTITY\u200B"
  };

  /** A generated prompt and the parts it was made of. */
  // a carrier of a case's bytes, compared part by part with Arrays.equals, never as a whole
  @SuppressWarnings("ArrayRecordComponent")
  private record Generated(
      byte[] bytes,
      byte[] prefix,
      byte[] oldContent,
      byte[] suffix,
      byte[] core,
      int coreOffset,
      boolean coreFirst,
      LineEnding ending,
      boolean uniform) {}

  /** Builds a prompt line by line, remembering where the parts are. */
  private static final class Builder {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final Random rnd;
    final LineEnding fileEnding;
    final boolean mixed;

    Builder(Random rnd, LineEnding fileEnding, boolean mixed) {
      this.rnd = rnd;
      this.fileEnding = fileEnding;
      this.mixed = mixed;
    }

    /** Appends a line with a terminator (the file's, or in a mixed file LF or CRLF at random). */
    LineEnding line(String text) {
      LineEnding e = mixed ? (rnd.nextBoolean() ? LineEnding.LF : LineEnding.CRLF) : fileEnding;
      out.writeBytes((text + e.chars()).getBytes(StandardCharsets.UTF_8));
      return e;
    }

    /** Appends a last line without a terminator. */
    void lastLine(String text) {
      out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    int size() {
      return out.size();
    }
  }

  private static boolean isMarker(String line) {
    String s = line.startsWith("\uFEFF") ? line.substring(1) : line;
    int a = 0;
    int b = s.length();
    while (a < b && (s.charAt(a) == ' ' || s.charAt(a) == '\t')) {
      a++;
    }
    while (b > a && (s.charAt(b - 1) == ' ' || s.charAt(b - 1) == '\t')) {
      b--;
    }
    return Arrays.asList(MARKERS).contains(s.substring(a, b));
  }

  private static String text(Random rnd) {
    while (true) {
      String line;
      int kind = rnd.nextInt(10);
      if (kind == 0) {
        line = "";
      } else if (kind <= 2) {
        line = LOOKALIKES[rnd.nextInt(LOOKALIKES.length)];
      } else {
        StringBuilder sb = new StringBuilder();
        int n = 1 + rnd.nextInt(10);
        for (int i = 0; i < n; i++) {
          sb.append(WORDS[rnd.nextInt(WORDS.length)]);
          if (rnd.nextInt(4) != 0) {
            sb.append(' ');
          }
        }
        line = sb.toString();
      }
      if (!isMarker(line)) {
        return line;
      }
    }
  }

  private static String marker(Random rnd, int which) {
    String[] pads = {"", "", "", " ", "\t", "  ", " \t"};
    return pads[rnd.nextInt(pads.length)] + MARKERS[which] + pads[rnd.nextInt(pads.length)];
  }

  private static Generated generate(Random rnd) {
    int mode = rnd.nextInt(10);
    LineEnding fileEnding = mode < 4 ? LineEnding.LF : mode < 8 ? LineEnding.CRLF : LineEnding.CR;
    boolean mixed = fileEnding != LineEnding.CR && rnd.nextInt(8) == 0;
    Builder b = new Builder(rnd, fileEnding, mixed);
    boolean coreFirst = rnd.nextBoolean();
    boolean bom = rnd.nextInt(12) == 0;
    boolean finalTerminator = rnd.nextInt(4) != 0;
    int before = bom ? 0 : rnd.nextInt(4);
    int between = rnd.nextInt(4);
    int after = rnd.nextInt(4);

    for (int i = 0; i < before; i++) {
      b.line(text(rnd));
    }
    int prefixEnd = -1;
    int oldContentEnd = -1;
    int coreStart = -1;
    int coreEnd = -1;
    LineEnding adaptiveEnding = null;
    for (int section = 0; section < 2; section++) {
      boolean core = (section == 0) == coreFirst;
      boolean lastOfFile = section == 1 && after == 0 && !finalTerminator;
      String bomPrefix = bom && section == 0 ? "\uFEFF" : "";
      if (core) {
        coreStart = b.size();
        b.line(bomPrefix + marker(rnd, 0));
        int n = rnd.nextInt(7);
        for (int i = 0; i < n; i++) {
          b.line(text(rnd));
        }
        if (lastOfFile) {
          b.lastLine(marker(rnd, 1));
        } else {
          b.line(marker(rnd, 1));
        }
        coreEnd = b.size();
      } else {
        adaptiveEnding = b.line(bomPrefix + marker(rnd, 2));
        prefixEnd = b.size();
        int n = rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
          b.line(text(rnd));
        }
        oldContentEnd = b.size();
        if (lastOfFile) {
          b.lastLine(marker(rnd, 3));
        } else {
          b.line(marker(rnd, 3));
        }
      }
      if (section == 0) {
        for (int i = 0; i < between; i++) {
          b.line(text(rnd));
        }
      }
    }
    for (int i = 0; i < after; i++) {
      if (i == after - 1 && !finalTerminator) {
        b.lastLine(
            text(rnd)
                + "x"); // a last line without terminator must not be empty, or it would not exist
      } else {
        b.line(text(rnd));
      }
    }
    byte[] bytes = b.out.toByteArray();
    return new Generated(
        bytes,
        Arrays.copyOfRange(bytes, 0, prefixEnd),
        Arrays.copyOfRange(bytes, prefixEnd, oldContentEnd),
        Arrays.copyOfRange(bytes, oldContentEnd, bytes.length),
        Arrays.copyOfRange(bytes, coreStart, coreEnd),
        coreStart,
        coreFirst,
        adaptiveEnding,
        !mixed);
  }

  private static String randomString(Random rnd, int words) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < words; i++) {
      int k = rnd.nextInt(12);
      if (k == 0) {
        sb.append(rnd.nextBoolean() ? "\n" : "\r\n");
      } else if (k == 1) {
        sb.append(MARKERS[rnd.nextInt(MARKERS.length)]);
      } else {
        sb.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
      }
    }
    return sb.toString();
  }

  private static AdaptiveContent content(Random rnd) {
    List<String> rules = new ArrayList<>();
    for (int i = rnd.nextInt(5); i > 0; i--) {
      rules.add(randomString(rnd, 1 + rnd.nextInt(8)));
    }
    List<PlanItem> plan = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      plan.add(
          new PlanItem(
              randomString(rnd, 1 + rnd.nextInt(3)), rnd.nextDouble() * 20, rnd.nextInt(50)));
    }
    StringBuilder note = new StringBuilder();
    for (int i = rnd.nextInt(5); i > 0; i--) {
      note.append(
              rnd.nextInt(4) == 0 ? "  " + MARKERS[rnd.nextInt(4)] + "\t" : randomString(rnd, 4))
          .append(rnd.nextBoolean() ? "\n" : "\r\n");
    }
    return new AdaptiveContent(
        rules,
        plan,
        note.toString(),
        Instant.ofEpochSecond(
            1_700_000_000L + rnd.nextInt(100_000_000), rnd.nextInt(1_000_000) * 1000L),
        rnd.nextInt(5) == 0
            ? ""
            : "pass-" + rnd.nextInt(1000) + (rnd.nextInt(10) == 0 ? "\nline two" : ""));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** Every terminator in {@code bytes}, in order. */
  private static List<LineEnding> terminators(byte[] bytes) {
    List<LineEnding> endings = new ArrayList<>();
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n') {
        endings.add(LineEnding.CRLF);
        i++;
      } else if (bytes[i] == '\r') {
        endings.add(LineEnding.CR);
      } else if (bytes[i] == '\n') {
        endings.add(LineEnding.LF);
      }
    }
    return endings;
  }

  @Test
  void onlyTheAdaptiveContentChangesAndTheOutputParsesToTheNewContent() throws Exception {
    Random rnd = new Random(20261122L);
    int coreFirst = 0;
    int crlf = 0;
    int cr = 0;
    int emptyBefore = 0;
    for (int c = 0; c < CASES; c++) {
      Generated g = generate(rnd);
      AdaptiveContent content = content(rnd);
      byte[] original = g.bytes().clone();
      String label = "case " + c + ": " + new String(g.bytes(), StandardCharsets.UTF_8);

      PromptPatch patch = PromptPatch.build("case-" + c, g.bytes(), content);
      byte[] rendered = content.render(g.ending());
      byte[] out = patch.patched();

      assertArrayEquals(original, g.bytes(), "the input is not modified; " + label);
      assertArrayEquals(concat(g.prefix(), rendered, g.suffix()), out, label);
      int coreOffset =
          g.coreFirst() ? g.coreOffset() : g.coreOffset() - g.bytes().length + out.length;
      assertArrayEquals(
          g.core(), Arrays.copyOfRange(out, coreOffset, coreOffset + g.core().length), label);
      assertTrue(terminators(rendered).stream().allMatch(e -> e == g.ending()), label);
      if (g.uniform()) {
        assertEquals(
            List.of(g.ending()),
            terminators(out).stream().distinct().toList(),
            "a " + g.ending() + " file keeps its line ending; " + label);
      }
      assertEquals(-1, StrictUtf8.firstInvalidByte(out), label);

      PromptLayout reparsed = PromptLayout.parse("out", out);
      assertArrayEquals(rendered, reparsed.adaptiveContent(out), label);
      assertArrayEquals(g.core(), reparsed.core(out), label);
      assertEquals(g.coreFirst(), reparsed.coreFirst(), label);
      String text = new String(reparsed.adaptiveContent(out), StandardCharsets.UTF_8);
      for (String rule : content.rules()) {
        String oneLine = rule.replaceAll("[\r\n]+", " ").strip();
        assertTrue(oneLine.isEmpty() || text.contains("- " + oneLine + g.ending().chars()), label);
      }

      PromptPatch again = PromptPatch.build("out", out, content);
      assertTrue(
          again.unchanged(), "patching the output with the same content changes nothing; " + label);
      assertEquals(Arrays.equals(g.oldContent(), rendered), patch.unchanged(), label);

      coreFirst += g.coreFirst() ? 1 : 0;
      crlf += g.ending() == LineEnding.CRLF ? 1 : 0;
      cr += g.ending() == LineEnding.CR ? 1 : 0;
      emptyBefore += g.oldContent().length == 0 ? 1 : 0;
    }
    // the generator covered every shape it claims to
    assertTrue(coreFirst > CASES / 4 && coreFirst < CASES * 3 / 4, "core first in " + coreFirst);
    assertTrue(crlf > CASES / 5, "CRLF in " + crlf);
    assertTrue(cr > CASES / 20, "CR in " + cr);
    assertTrue(emptyBefore > CASES / 10, "empty adaptive section in " + emptyBefore);
  }

  @Test
  void theGeneratorsLookalikesAreTextToTheParser() throws Exception {
    for (String lookalike : LOOKALIKES) {
      String prompt =
          lookalike
              + "\n## BEGIN_CORE_IDENTITY\n"
              + lookalike
              + "\n## END_CORE_IDENTITY\n"
              + "## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION\n"
              + lookalike;
      PromptLayout layout = PromptLayout.parse("p", prompt.getBytes(StandardCharsets.UTF_8));
      assertEquals(2, layout.coreBeginLine(), lookalike);
      assertEquals(4, layout.coreEndLine(), lookalike);
      assertEquals(5, layout.adaptiveBeginLine(), lookalike);
    }
  }
}
