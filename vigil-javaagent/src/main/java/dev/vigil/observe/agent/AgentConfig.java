package dev.vigil.observe.agent;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The agent's configuration (docs/AGENT.md, "Configuration"). Each key can come from the agent
 * argument, a system property, an environment variable or the properties file named by {@code
 * vigil.config.file}, in that order of precedence. A malformed value prints one line naming the key
 * and the default is used.
 *
 * @param enabled false: the agent installs nothing
 * @param queueDir Chronicle Queue directory
 * @param agentName the {@code agent} field, or null for the main class's simple name
 * @param includes methods named by {@code vigil.methods.include}
 * @param kinds event kinds renamed by {@code vigil.kinds}
 * @param captureArgs capture arguments
 * @param captureResult capture return values
 * @param maxChars longer captured values are cut
 * @param redaction what is replaced by {@code ***}
 * @param captureTurns record {@code turn.user} and {@code turn.answer} around AI-service and
 *     chat-client calls
 * @param openDelayMs how long the first event waits before the queue is opened; a process that ends
 *     sooner writes a spill file instead (docs/DESIGN.md#spill-files)
 */
public record AgentConfig(
    boolean enabled,
    Path queueDir,
    String agentName,
    List<MethodInclude> includes,
    KindOverrides kinds,
    boolean captureArgs,
    boolean captureResult,
    int maxChars,
    Redaction redaction,
    boolean captureTurns,
    int openDelayMs) {

  /** Every key the agent reads, with its default. */
  public static final Map<String, String> DEFAULTS = defaults();

  /** The key naming a properties file with more configuration. */
  public static final String CONFIG_FILE = "vigil.config.file";

  private static final String INCLUDES = "vigil.methods.include";
  private static final String KINDS = "vigil.kinds";
  private static final String REDACT_KEYS = "vigil.redact.keys";
  private static final String REDACT_PATTERNS = "vigil.redact.patterns";

  private static Map<String, String> defaults() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("vigil.enabled", "true");
    d.put("vigil.queue.dir", "./vigil-queue");
    d.put("vigil.agent.name", "");
    d.put(INCLUDES, "");
    d.put(KINDS, "");
    d.put("vigil.capture.args", "true");
    d.put("vigil.capture.result", "true");
    d.put("vigil.capture.max-chars", "4096");
    d.put(REDACT_KEYS, Redaction.DEFAULT_KEYS);
    d.put(REDACT_PATTERNS, Redaction.DEFAULT_PATTERNS);
    d.put("vigil.capture.turns", "true");
    d.put("vigil.queue.open-delay-ms", "500");
    return Map.copyOf(d);
  }

  /** The configuration with every key at its default. */
  public static AgentConfig defaultConfig() {
    return load(null, new Properties(), Map.of(), line -> {});
  }

  /**
   * Reads the configuration from its four sources.
   *
   * @param agentArgs the text after {@code =} in {@code -javaagent:vigil.jar=...}, or null
   * @param sysProps the system properties
   * @param env the environment
   * @param warn receives one line per malformed value or unknown key
   */
  public static AgentConfig load(
      String agentArgs, Properties sysProps, Map<String, String> env, Consumer<String> warn) {
    Map<String, String> args = parseAgentArgs(agentArgs, warn);
    Map<String, String> file = new LinkedHashMap<>();
    String fileName = first(CONFIG_FILE, args, sysProps, env, Map.of());
    if (fileName != null && !fileName.isBlank()) {
      file = readFile(Path.of(fileName.trim()), warn);
    }
    Resolver r = new Resolver(args, sysProps, env, file, warn);
    boolean enabled = r.bool("vigil.enabled");
    Path queueDir = Path.of(r.text("vigil.queue.dir"));
    String name = r.text("vigil.agent.name").trim();
    List<MethodInclude> includes = r.parsed(INCLUDES, List.of());
    KindOverrides kinds = r.parsed(KINDS, KindOverrides.NONE);
    boolean captureArgs = r.bool("vigil.capture.args");
    boolean captureResult = r.bool("vigil.capture.result");
    int maxChars = r.positiveInt("vigil.capture.max-chars");
    List<String> keys = r.parsed(REDACT_KEYS, Redaction.parseKeys(Redaction.DEFAULT_KEYS));
    String patterns = r.parsed(REDACT_PATTERNS, Redaction.DEFAULT_PATTERNS);
    boolean captureTurns = r.bool("vigil.capture.turns");
    int openDelayMs = r.nonNegativeInt("vigil.queue.open-delay-ms");
    return new AgentConfig(
        enabled,
        queueDir,
        name.isEmpty() ? null : name,
        includes,
        kinds,
        captureArgs,
        captureResult,
        maxChars,
        Redaction.compiledLater(keys, patterns),
        captureTurns,
        openDelayMs);
  }

  /**
   * {@code regex} once it is known to compile; the default patterns are not compiled here (they are
   * on first use), so that {@code premain} loads none of the regular-expression engine for them.
   */
  private static String checked(String regex) {
    if (regex.isBlank() || regex.equals(Redaction.DEFAULT_PATTERNS)) {
      return regex;
    }
    try {
      Pattern.compile(regex);
      return regex;
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("not a regular expression: " + e.getDescription());
    }
  }

  /**
   * The environment variable of a key: {@code vigil.capture.max-chars} is {@code
   * VIGIL_CAPTURE_MAX_CHARS}.
   */
  public static String envName(String key) {
    return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
  }

  private static String first(
      String key,
      Map<String, String> args,
      Properties sysProps,
      Map<String, String> env,
      Map<String, String> file) {
    String v = args.get(key);
    if (v == null) {
      v = sysProps.getProperty(key);
    }
    if (v == null) {
      v = env.get(envName(key));
    }
    if (v == null) {
      v = file.get(key);
    }
    return v;
  }

  /**
   * Splits the agent argument into keys and values. Pairs are separated by commas, but a comma
   * inside brackets or one not followed by {@code key=} belongs to the value, so {@code
   * redact.keys=password,pin,capture.args=false} and {@code methods.include=a.B[m1,m2]} read as
   * expected. Keys may omit the {@code vigil.} prefix.
   */
  static Map<String, String> parseAgentArgs(String agentArgs, Consumer<String> warn) {
    Map<String, String> out = new LinkedHashMap<>();
    if (agentArgs == null || agentArgs.isBlank()) {
      return out;
    }
    List<String> pairs = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int i = 0; i < agentArgs.length(); i++) {
      char c = agentArgs.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        depth = Math.max(0, depth - 1);
      } else if (c == ',' && depth == 0 && startsPair(agentArgs, i + 1)) {
        pairs.add(agentArgs.substring(start, i));
        start = i + 1;
      }
    }
    pairs.add(agentArgs.substring(start));
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      if (eq <= 0) {
        warn.accept("agent argument \"" + pair + "\" is not key=value; ignored");
        continue;
      }
      String key = qualify(pair.substring(0, eq).trim());
      if (!DEFAULTS.containsKey(key) && !key.equals(CONFIG_FILE)) {
        warn.accept("unknown configuration key " + key + " in the agent argument; ignored");
        continue;
      }
      out.put(key, pair.substring(eq + 1).trim());
    }
    return out;
  }

  private static boolean startsPair(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) == ' ') {
      i++;
    }
    int keyStart = i;
    while (i < s.length()
        && (Character.isLetterOrDigit(s.charAt(i))
            || s.charAt(i) == '.'
            || s.charAt(i) == '-'
            || s.charAt(i) == '_')) {
      i++;
    }
    return i > keyStart
        && i < s.length()
        && s.charAt(i) == '='
        && Character.isLetter(s.charAt(keyStart));
  }

  private static String qualify(String key) {
    return key.startsWith("vigil.") ? key : "vigil." + key;
  }

  private static Map<String, String> readFile(Path path, Consumer<String> warn) {
    Map<String, String> out = new LinkedHashMap<>();
    Properties p = new Properties();
    try (Reader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      p.load(in);
    } catch (IOException | RuntimeException e) {
      warn.accept(
          CONFIG_FILE
              + ": cannot read "
              + path
              + " ("
              + e.getClass().getSimpleName()
              + "); ignored");
      return out;
    }
    for (String name : p.stringPropertyNames()) {
      String key = qualify(name.trim());
      if (!DEFAULTS.containsKey(key)) {
        warn.accept("unknown configuration key " + key + " in " + path + "; ignored");
        continue;
      }
      out.put(key, p.getProperty(name).trim());
    }
    return out;
  }

  /**
   * The parsed value of one of the keys whose values have a syntax; a switch rather than method
   * references, so that {@code premain} links no lambda (docs/DESIGN.md#the-start-path).
   *
   * @throws IllegalArgumentException saying what is malformed
   */
  private static Object parse(String key, String value) {
    return switch (key) {
      case INCLUDES -> MethodInclude.parseList(value);
      case KINDS -> KindOverrides.parse(value);
      case REDACT_KEYS -> Redaction.parseKeys(value);
      case REDACT_PATTERNS -> checked(value);
      default -> throw new IllegalStateException("no syntax for " + key);
    };
  }

  /**
   * Reads typed values from the four sources, first found first, falling back to the default with
   * one line per malformed value.
   */
  private record Resolver(
      Map<String, String> args,
      Properties sysProps,
      Map<String, String> env,
      Map<String, String> file,
      Consumer<String> warn) {
    String text(String key) {
      String v = first(key, args, sysProps, env, file);
      return v == null ? DEFAULTS.get(key) : v;
    }

    boolean bool(String key) {
      String v = text(key).trim().toLowerCase(Locale.ROOT);
      if (v.equals("true") || v.equals("false")) {
        return v.equals("true");
      }
      return fallback(key, v, "is not true or false", Boolean.parseBoolean(DEFAULTS.get(key)));
    }

    int positiveInt(String key) {
      return atLeast(key, 1);
    }

    int nonNegativeInt(String key) {
      return atLeast(key, 0);
    }

    private int atLeast(String key, int least) {
      String v = text(key).trim();
      try {
        int n = Integer.parseInt(v);
        if (n >= least) {
          return n;
        }
      } catch (NumberFormatException e) {
        // below
      }
      return fallback(
          key,
          v,
          "is not a whole number of at least " + least,
          Integer.parseInt(DEFAULTS.get(key)));
    }

    /** The value of {@code key} as {@link #parse} reads it; {@code T} is what it gives for it. */
    @SuppressWarnings("unchecked")
    <T> T parsed(String key, T defaultValue) {
      String v = text(key);
      try {
        return (T) parse(key, v);
      } catch (IllegalArgumentException e) {
        return fallback(key, v, e.getMessage(), defaultValue);
      }
    }

    private <T> T fallback(String key, String value, String why, T defaultValue) {
      warn.accept(
          key + ": \"" + value + "\" " + why + "; using the default \"" + DEFAULTS.get(key) + "\"");
      return defaultValue;
    }
  }
}
