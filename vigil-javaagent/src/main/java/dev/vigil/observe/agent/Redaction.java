package dev.vigil.observe.agent;

import dev.vigil.observe.SmileOut;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What never reaches the queue (docs/AGENT.md, "Configuration"): values of arguments, map keys and
 * JSON fields whose name contains one of the keys (any case), and every match of the patterns in a
 * captured string, all replaced by {@code ***}. The patterns are compiled on first use, on the
 * writer thread: compiling the default ones in {@code premain} cost a short process's start a few
 * milliseconds, and the writer needs them only for a string that may hold a match.
 */
public final class Redaction {
  /** The replacement. */
  public static final String MASK = "***";

  /** Default of {@code vigil.redact.keys}. */
  public static final String DEFAULT_KEYS =
      "password,passwd,secret,token,apikey,api_key,authorization,credential,private_key";

  /**
   * Default of {@code vigil.redact.patterns}: API keys of the common shapes (OpenAI and Anthropic
   * {@code sk-...}, GitHub {@code ghp_...}, Google {@code AIza...}, Slack {@code xox?-...}), bearer
   * tokens and AWS access keys.
   */
  public static final String DEFAULT_PATTERNS =
      String.join(
          "|",
          "\\bsk-[A-Za-z0-9_-]{16,}",
          "\\bgh[pousr]_[A-Za-z0-9]{30,}",
          "\\bAIza[0-9A-Za-z_-]{35}",
          "\\bxox[abprs]-[A-Za-z0-9-]{10,}",
          "(?i)\\bbearer\\s+[A-Za-z0-9._~+/-]+=*",
          "\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b");

  private final List<String> keys;

  /** The patterns' source, or null for none. */
  private final String source;

  private final boolean defaultPatterns;
  private volatile Pattern compiled;

  /**
   * A redaction of names containing {@code keys} (lower-case name fragments) and of matches of
   * {@code patterns} (one regular expression, alternatives joined by {@code |}; null for none).
   */
  public Redaction(List<String> keys, Pattern patterns) {
    this(keys, patterns == null ? null : patterns.pattern(), patterns);
  }

  private Redaction(List<String> keys, String source, Pattern compiled) {
    this.keys = List.copyOf(keys);
    this.source = source;
    this.defaultPatterns = DEFAULT_PATTERNS.equals(source);
    this.compiled = compiled;
  }

  /**
   * A redaction whose patterns, the regular expression {@code source} (null or blank for none), are
   * compiled on first use; {@code source} must compile.
   */
  static Redaction compiledLater(List<String> keys, String source) {
    return new Redaction(keys, source == null || source.isBlank() ? null : source, null);
  }

  /** The lower-case name fragments. */
  public List<String> keys() {
    return keys;
  }

  /** The patterns, compiled now if they were not yet; null for none. */
  public Pattern patterns() {
    Pattern p = compiled;
    if (p == null && source != null) {
      p = Pattern.compile(source);
      compiled = p;
    }
    return p;
  }

  /** Reads a comma-separated list of keys. */
  public static List<String> parseKeys(String value) {
    List<String> out = new ArrayList<>();
    for (String k : value.split(",", -1)) {
      String key = k.trim().toLowerCase(Locale.ROOT);
      if (!key.isEmpty()) {
        out.add(key);
      }
    }
    return List.copyOf(out);
  }

  /** Whether a value named {@code name} is a secret. */
  public boolean isSecretName(String name) {
    if (name == null || keys.isEmpty()) {
      return false;
    }
    String lower = name.toLowerCase(Locale.ROOT);
    for (String key : keys) {
      if (lower.contains(key)) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code text} with every match of the patterns replaced. With the default patterns, a string
   * that holds none of their literal beginnings is returned at once: a regular-expression search of
   * every captured string was the writer thread's largest cost.
   */
  public String text(String text) {
    if (source == null || text == null || text.isEmpty()) {
      return text;
    }
    if (defaultPatterns && !mayHoldDefaultShape(text)) {
      return text;
    }
    return patterns().matcher(text).replaceAll(MASK);
  }

  /**
   * Writes {@code s} as it is when it is ASCII and, with the default patterns, holds none of their
   * beginnings ({@link #mayHoldDefaultShape}): the check and the encoding in one pass. False, with
   * nothing written, when the caller must write {@link #text}{@code (s)} instead.
   */
  public boolean writeUnchanged(String s, SmileOut out) {
    if (source == null) {
      return out.asciiString(s, NO_GUARD);
    }
    return defaultPatterns && out.asciiString(s, SHAPE_GUARD);
  }

  /** Stops nowhere: without patterns nothing is redacted. */
  private static final SmileOut.AsciiGuard NO_GUARD = new NoGuard();

  /**
   * Stops at a word start that begins a default shape, as {@link #mayHoldDefaultShape} finds it.
   * Classes rather than lambdas: no bootstrap of a lambda while the agent starts.
   */
  private static final SmileOut.AsciiGuard SHAPE_GUARD = new ShapeGuard();

  private static final class NoGuard implements SmileOut.AsciiGuard {
    @Override
    public boolean stops(String s, byte[] ascii, int from) {
      return false;
    }
  }

  private static final class ShapeGuard implements SmileOut.AsciiGuard {
    @Override
    public boolean stops(String s, byte[] ascii, int from) {
      return mayHoldDefaultShape(ascii, from, s.length());
    }
  }

  /**
   * Whether the ASCII text {@code ascii[from]} to {@code ascii[from + n - 1]} (UTF-8 bytes each
   * below 128) is unchanged by the patterns, as far as one pass over its bytes can tell: true
   * without patterns, and with the default patterns when it holds none of their beginnings; false
   * when {@link #text} must be asked.
   */
  public boolean unchangedAscii(byte[] ascii, int from, int n) {
    return source == null || (defaultPatterns && !mayHoldDefaultShape(ascii, from, n));
  }

  /** {@link #mayHoldDefaultShape(String)} of an ASCII text given as its bytes. */
  static boolean mayHoldDefaultShape(byte[] ascii, int from, int n) {
    boolean inWord = false;
    for (int i = 0; i <= n - SHORTEST_MATCH; i++) {
      int c = ascii[from + i] & 0x7F;
      if (!inWord && SHAPE_STARTS[c] && beginsShape(ascii, from + i, c, from + n)) {
        return true;
      }
      inWord = WORD[c];
    }
    return false;
  }

  /**
   * Whether the beginning of a default shape is at {@code b[at]}, which is {@code c}; the text ends
   * before {@code end}. The bytes of {@link #beginsShape(String, int, char, int)}.
   */
  private static boolean beginsShape(byte[] b, int at, int c, int end) {
    return switch (c) {
      case 's' -> at + 2 < end && b[at + 1] == 'k' && b[at + 2] == '-';
      case 'x' -> at + 2 < end && b[at + 1] == 'o' && b[at + 2] == 'x';
      case 'g' -> at + 3 < end && b[at + 1] == 'h' && b[at + 3] == '_';
      case 'b', 'B' -> at + 5 < end && foldedEquals(b, at, "bearer");
      default -> // 'a', 'A'
          (c == 'A' && at + 3 < end && b[at + 1] == 'I' && b[at + 2] == 'z' && b[at + 3] == 'a')
              || (at + 3 < end
                  && ((b[at + 1] | 0x20) == 'k' || (b[at + 1] | 0x20) == 's')
                  && (b[at + 2] | 0x20) == 'i'
                  && (b[at + 3] | 0x20) == 'a');
    };
  }

  /** Whether the bytes at {@code at} are the lower-case letters {@code word} in any case. */
  private static boolean foldedEquals(byte[] b, int at, String word) {
    for (int k = 0; k < word.length(); k++) {
      if ((b[at + k] | 0x20) != word.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether {@code s} holds the literal beginning of one of the {@link #DEFAULT_PATTERNS} ({@code
   * sk-}, {@code gh?_}, {@code AIza}, {@code xox}, and in any case {@code bearer}, {@code akia},
   * {@code asia}: the {@code (?i)} before the bearer alternative holds for the alternatives after
   * it too) at a word boundary; when it holds none, none of them can match. Every alternative
   * begins with {@code \b} and a word character, so only a character that no word character comes
   * before can begin one: within a word nothing is checked. A character beyond ASCII is taken as a
   * boundary (the check then looks at more places than the search, never fewer). One pass over the
   * string, up to the last place a match can begin ({@link #SHORTEST_MATCH}).
   */
  static boolean mayHoldDefaultShape(String s) {
    boolean inWord = false;
    for (int i = 0, n = s.length(); i <= n - SHORTEST_MATCH; i++) {
      char c = s.charAt(i);
      if (c >= WORD.length) {
        inWord = false;
        continue;
      }
      if (!inWord && SHAPE_STARTS[c] && beginsShape(s, i, c, n)) {
        return true;
      }
      inWord = WORD[c];
    }
    return false;
  }

  /**
   * The fewest characters a match of the {@link #DEFAULT_PATTERNS} takes ({@code bearer x}): no
   * match begins later than that many characters before the end, and a shorter text holds none.
   */
  private static final int SHORTEST_MATCH = 8;

  /** The ASCII word characters of a regular expression's {@code \b}: letters, digits, {@code _}. */
  private static final boolean[] WORD = new boolean[128];

  static {
    for (char c = 0; c < 128; c++) {
      WORD[c] = Character.isLetterOrDigit(c) || c == '_';
    }
  }

  /** The characters a default shape can begin with. */
  private static final boolean[] SHAPE_STARTS = new boolean[128];

  static {
    for (char c : "sxgbBaA".toCharArray()) {
      SHAPE_STARTS[c] = true;
    }
  }

  /** Whether the beginning of a default shape is at {@code i}, where {@code c} is. */
  private static boolean beginsShape(String s, int i, char c, int n) {
    return switch (c) {
      case 's' -> s.startsWith("sk-", i);
      case 'x' -> s.startsWith("xox", i);
      case 'g' -> i + 3 < n && s.charAt(i + 1) == 'h' && s.charAt(i + 3) == '_';
      case 'b', 'B' ->
          i + 5 < n && (s.charAt(i + 1) | 0x20) == 'e' && s.regionMatches(true, i, "bearer", 0, 6);
      default ->
          (c == 'A' && s.startsWith("AIza", i)) || (i + 3 < n && isKeyPrefix(s, i)); // 'a', 'A'
    };
  }

  /**
   * Whether {@code akia} or {@code asia}, in any case, begins at {@code i} (an {@code a} or {@code
   * A}).
   */
  private static boolean isKeyPrefix(String s, int i) {
    int second = s.charAt(i + 1) | 0x20;
    return (second == 'k' || second == 's')
        && (s.charAt(i + 2) | 0x20) == 'i'
        && (s.charAt(i + 3) | 0x20) == 'a';
  }
}
