package dev.vigil.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A labels file (docs/EVAL.md): JSON lines {@code {"session": "...", "failed": true|false}}, each
 * with an optional {@code "group"} (the task, customer or scenario the session served; {@code fit}
 * never splits one). Blank lines are passed over; a line that is not a JSON object, lacks a string
 * {@code session} or a boolean {@code failed}, or names a session a line before it named, is a bad
 * line: counted with its number and reason, never fatal.
 *
 * @param failed each session's label, in the order of the file
 * @param groups each session's group, when its line gives one
 * @param badLines the bad lines, in order
 */
record Labels(Map<String, Boolean> failed, Map<String, String> groups, List<BadLine> badLines) {
  /** A line that gave no label. */
  record BadLine(long line, String reason) {
    @Override
    public String toString() {
      return "line " + line + ": " + reason;
    }
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  Labels {
    failed = Collections.unmodifiableMap(new LinkedHashMap<>(failed));
    groups = Map.copyOf(groups);
    badLines = List.copyOf(badLines);
  }

  /**
   * Reads a labels file.
   *
   * @throws IllegalArgumentException naming the file when it is missing or unreadable
   */
  static Labels read(Path file) {
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw new IllegalArgumentException(
          "labels file "
              + file
              + (Files.exists(file) ? " is not a readable file" : " does not exist"));
    }
    Map<String, Boolean> failed = new LinkedHashMap<>();
    Map<String, String> groups = new HashMap<>();
    Map<String, Long> firstLine = new HashMap<>();
    List<BadLine> bad = new ArrayList<>();
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
      long n = 0;
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        String why = label(line, n, failed, groups, firstLine);
        if (why != null) {
          bad.add(new BadLine(n, why));
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "labels file " + file + " cannot be read: " + e.getMessage(), e);
    }
    return new Labels(failed, groups, bad);
  }

  /** Takes one line's label; returns why it gave none, or null. */
  private static String label(
      String line,
      long n,
      Map<String, Boolean> failed,
      Map<String, String> groups,
      Map<String, Long> firstLine) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (JsonProcessingException e) {
      return "not JSON";
    }
    if (node == null || !node.isObject()) {
      return "not a JSON object";
    }
    JsonNode session = node.get("session");
    if (session == null || !session.isTextual()) {
      return session == null ? "no \"session\"" : "\"session\" is not a string";
    }
    JsonNode label = node.get("failed");
    if (label == null || !label.isBoolean()) {
      return label == null ? "no \"failed\"" : "\"failed\" is not true or false";
    }
    JsonNode group = node.get("group");
    if (group != null && !group.isNull() && !group.isTextual()) {
      return "\"group\" is not a string";
    }
    Long first = firstLine.putIfAbsent(session.asText(), n);
    if (first != null) {
      return "session \"" + session.asText() + "\" was labelled on line " + first + " already";
    }
    failed.put(session.asText(), label.asBoolean());
    if (group != null && group.isTextual()) {
      groups.put(session.asText(), group.asText());
    }
    return null;
  }
}
