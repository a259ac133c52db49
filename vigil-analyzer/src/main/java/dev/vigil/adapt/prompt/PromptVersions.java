package dev.vigil.adapt.prompt;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kept versions of the prompt, {@code OUT/prompts/} (docs/ADAPTATION.md#prompt-adaptation and
 * docs/DESIGN.md#artifacts): one file per version, {@code
 * prompt_<NNNN>_<yyyyMMdd'T'HHmmss'Z'>.txt}, and {@code index.jsonl}, one line per version with its
 * number, file, SHA-256, size, creation time, source, pass and prompt file.
 *
 * <p>A version's file is written completely (temporary file and move) before its index line is
 * appended, so the index never names a file that is not all there. Numbers are never reused: the
 * next one is past every number in the index and in the directory's file names. One {@code OUT}
 * directory is written by one pass at a time.
 */
public final class PromptVersions {
  /** The versions directory inside {@code OUT}. */
  public static final String DIR = "prompts";

  /** The index file inside {@link #DIR}. */
  public static final String INDEX = "index.jsonl";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final DateTimeFormatter FILE_TS =
      DateTimeFormatter.ofPattern("uuuuMMdd'T'HHmmss'Z'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final Pattern VERSION_FILE = Pattern.compile("prompt_(\\d{1,9})_.*\\.txt");
  private static final Pattern SAFE_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Pattern HEX_PREFIX = Pattern.compile("[0-9a-fA-F]{6,64}");
  private static final Pattern NUMBER = Pattern.compile("\\d{1,9}");

  private final Path dir;
  private final List<PromptVersion> versions;

  private PromptVersions(Path dir, List<PromptVersion> versions) {
    this.dir = dir;
    this.versions = versions;
  }

  /**
   * Reads the versions kept in {@code outDir}; none when {@code OUT/prompts/} or its index does not
   * exist yet.
   *
   * @throws IllegalArgumentException when the index holds a line that is not a version (the message
   *     names the file and line)
   * @throws IOException when the index cannot be read
   */
  public static PromptVersions open(Path outDir) throws IOException {
    Path dir = outDir.resolve(DIR);
    Path index = dir.resolve(INDEX);
    List<PromptVersion> versions = new ArrayList<>();
    List<String> lines;
    try {
      lines = Files.readAllLines(index, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return new PromptVersions(dir, versions);
    }
    Set<Integer> numbers = new HashSet<>();
    for (int i = 0; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      PromptVersion v = parseLine(index, i + 1, lines.get(i));
      if (!numbers.add(v.number())) {
        throw new IllegalArgumentException(
            index
                + " line "
                + (i + 1)
                + ": version "
                + v.number()
                + " is listed twice; remove the line");
      }
      versions.add(v);
    }
    return new PromptVersions(dir, versions);
  }

  private static PromptVersion parseLine(Path index, int lineNo, String line) {
    String where = index + " line " + lineNo + ": ";
    String fix = "; remove or fix the line";
    JsonNode n;
    try {
      n = MAPPER.readTree(line);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(where + "not JSON" + fix);
    }
    if (!n.isObject()) {
      throw new IllegalArgumentException(where + "not a JSON object" + fix);
    }
    JsonNode number = n.get("version");
    if (number == null) {
      throw new IllegalArgumentException(where + "version is missing" + fix);
    }
    if (!number.isIntegralNumber() || !number.canConvertToInt() || number.asInt() < 1) {
      throw new IllegalArgumentException(
          where + "version " + number + " is not a positive whole number" + fix);
    }
    String file = n.path("file").asText("");
    if (!SAFE_NAME.matcher(file).matches()) {
      throw new IllegalArgumentException(
          where + "file \"" + file + "\" is not a file name inside " + DIR + fix);
    }
    String sha = n.path("sha256").asText("");
    if (!SHA256.matcher(sha).matches()) {
      throw new IllegalArgumentException(
          where + "sha256 \"" + sha + "\" is not 64 lower-case hex digits" + fix);
    }
    Instant created;
    try {
      created = Instant.parse(n.path("created").asText(""));
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          where
              + "created \""
              + n.path("created").asText("")
              + "\" is not an ISO-8601 instant"
              + fix);
    }
    return new PromptVersion(
        number.asInt(),
        file,
        sha,
        n.path("bytes").asLong(-1),
        created,
        n.path("source").asText(""),
        n.path("pass").asText(""),
        n.path("prompt").asText(""));
  }

  /** The versions directory, {@code OUT/prompts/}. */
  public Path dir() {
    return dir;
  }

  /** Every kept version, oldest first. */
  public List<PromptVersion> versions() {
    return Collections.unmodifiableList(versions);
  }

  /** The version kept last. */
  public Optional<PromptVersion> latest() {
    return versions.isEmpty() ? Optional.empty() : Optional.of(versions.get(versions.size() - 1));
  }

  /** The newest kept version with these bytes' SHA-256. */
  public Optional<PromptVersion> withSha256(String sha256) {
    for (int i = versions.size() - 1; i >= 0; i--) {
      if (versions.get(i).sha256().equals(sha256)) {
        return Optional.of(versions.get(i));
      }
    }
    return Optional.empty();
  }

  /**
   * Keeps {@code bytes} as the next version: its file first (temporary file and move), then its
   * index line.
   *
   * @param created when (names the file, in UTC seconds)
   * @param source {@link PromptVersion#ORIGINAL} or {@link PromptVersion#PASS}
   * @param pass the pass's id, empty when unknown
   * @param prompt the prompt file the pass read
   */
  public PromptVersion keep(
      byte[] bytes, Instant created, String source, String pass, String prompt) throws IOException {
    OwnerOnly.createDirectories(dir);
    int number = nextNumber();
    String file = String.format(Locale.ROOT, "prompt_%04d_%s.txt", number, FILE_TS.format(created));
    PromptVersion v =
        new PromptVersion(
            number,
            file,
            Sha256.hex(bytes),
            bytes.length,
            created,
            source,
            pass == null ? "" : pass,
            prompt == null ? "" : prompt);
    AtomicWrite.replace(v.path(dir), bytes);
    ObjectNode line = MAPPER.createObjectNode();
    line.put("version", v.number());
    line.put("file", v.file());
    line.put("sha256", v.sha256());
    line.put("bytes", v.bytes());
    line.put("created", Timestamps.format(v.created()));
    line.put("source", v.source());
    line.put("pass", v.pass());
    line.put("prompt", v.prompt());
    Files.write(
        dir.resolve(INDEX),
        (MAPPER.writeValueAsString(line) + "\n").getBytes(StandardCharsets.UTF_8),
        StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
    versions.add(v);
    return v;
  }

  private int nextNumber() throws IOException {
    int max = 0;
    for (PromptVersion v : versions) {
      max = Math.max(max, v.number());
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Matcher m = VERSION_FILE.matcher(f.getFileName().toString());
        if (m.matches()) {
          max = Math.max(max, Integer.parseInt(m.group(1)));
        }
      }
    }
    return max + 1;
  }

  /**
   * The version a user names: a version number (fewer than 6 digits, leading zeros allowed) or a
   * prefix of at least 6 hex digits of its SHA-256 (any case); 6 or more plain digits are tried as
   * both. A prefix matching several versions with the same bytes names the newest of them.
   *
   * @throws IllegalArgumentException when nothing or more than one distinct prompt matches, or
   *     there are no versions; the message lists the candidates
   */
  public PromptVersion select(String selector) {
    String s = selector == null ? "" : selector.strip();
    if (versions.isEmpty()) {
      throw new IllegalArgumentException(
          "no prompt versions are kept in " + dir + "; a run with --prompt keeps them");
    }
    boolean number = NUMBER.matcher(s).matches();
    boolean hex = HEX_PREFIX.matcher(s).matches();
    if (!number && !hex) {
      throw new IllegalArgumentException(
          "\""
              + s
              + "\" is neither a version number nor a SHA-256 prefix of at least "
              + "6 hex digits; kept versions:"
              + list(versions));
    }
    Set<PromptVersion> matches = new LinkedHashSet<>();
    if (number) {
      int n = Integer.parseInt(s);
      versions.stream().filter(v -> v.number() == n).forEach(matches::add);
    }
    if (hex) {
      String prefix = s.toLowerCase(Locale.ROOT);
      versions.stream().filter(v -> v.sha256().startsWith(prefix)).forEach(matches::add);
    }
    if (matches.isEmpty()) {
      String what =
          !hex
              ? "is numbered"
              : number
                  ? "is numbered or has a SHA-256 starting with"
                  : "has a SHA-256 starting with";
      throw new IllegalArgumentException(
          "no kept version "
              + what
              + " \""
              + s
              + "\" in "
              + dir.resolve(INDEX)
              + "; kept versions:"
              + list(versions));
    }
    Set<String> distinct = matches.stream().map(PromptVersion::sha256).collect(Collectors.toSet());
    if (distinct.size() > 1) {
      throw new IllegalArgumentException(
          "\""
              + s
              + "\" is ambiguous: it names "
              + matches.size()
              + " versions with different contents; give more hex digits or the number:"
              + list(matches));
    }
    PromptVersion newest = null;
    for (PromptVersion v : matches) {
      if (newest == null || v.number() > newest.number()) {
        newest = v;
      }
    }
    return newest;
  }

  /**
   * The bytes of a kept version, after checking them against the SHA-256 in the index.
   *
   * @throws IllegalArgumentException when the file is missing or its SHA-256 differs (the message
   *     names the file)
   */
  public byte[] read(PromptVersion v) throws IOException {
    Path file = v.path(dir);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException(
          file + " (version " + v.number() + ") is missing; pick another version");
    }
    String sha = Sha256.hex(bytes);
    if (!sha.equals(v.sha256())) {
      throw new IllegalArgumentException(
          file
              + " (version "
              + v.number()
              + ") has SHA-256 "
              + sha
              + " but "
              + dir.resolve(INDEX)
              + " says "
              + v.sha256()
              + ": the kept file was altered; pick another version");
    }
    return bytes;
  }

  private static String list(Iterable<PromptVersion> vs) {
    StringBuilder sb = new StringBuilder();
    for (PromptVersion v : vs) {
      sb.append(System.lineSeparator()).append("  ").append(v.describe());
    }
    return sb.toString();
  }
}
