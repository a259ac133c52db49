package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The internal thorns still open, kept in {@code OUT/internal_thorns.json} (never in the EmoBank,
 * which a failing pass must leave untouched): each pass records its own, and a thorn of an earlier
 * pass that does not recur is reported resolved.
 */
final class OpenInternalThorns {
  /** The file in {@code --out}. */
  public static final String FILE = "internal_thorns.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private OpenInternalThorns() {}

  /**
   * Records this pass's thorns as the open ones and returns those of earlier passes that did not
   * recur. An unreadable file counts as no open thorns (it is replaced).
   */
  public static List<InternalThorn> update(Path out, List<InternalThorn> now) throws IOException {
    Path file = out.resolve(FILE);
    Map<String, InternalThorn> before = new LinkedHashMap<>();
    if (Files.isRegularFile(file)) {
      try {
        for (JsonNode n : MAPPER.readTree(file.toFile()).path("open")) {
          InternalThorn t = InternalThorn.fromJson(n);
          before.put(t.key(), t);
        }
      } catch (IOException e) {
        before.clear();
      }
    }
    for (InternalThorn t : now) {
      before.remove(t.key());
    }
    OwnerOnly.createDirectories(out);
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode open = root.putArray("open");
    now.forEach(t -> open.add(t.toJson()));
    AtomicWrite.replace(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(root));
    return new ArrayList<>(before.values());
  }
}
