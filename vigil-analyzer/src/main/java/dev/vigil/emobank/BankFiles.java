package dev.vigil.emobank;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

/**
 * The checks an {@link EmoBank} makes of its directory before it reads it, and its episode totals.
 */
final class BankFiles {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** How old a temporary file must be to be taken as left behind by a killed writer. */
  static final Duration STALE_TMP = Duration.ofMinutes(10);

  private BankFiles() {}

  /** Checks that every file in {@code dir} is one the bank writes. */
  static void checkNames(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        boolean ours =
            name.equals(EmoBank.EMOTIONS)
                || name.equals(EmoBank.STATE)
                || name.equals(EmoBank.CHECKPOINT)
                || name.equals(EmoBank.EPISODES)
                || name.matches("seen-\\d+\\.bin")
                || name.matches("recovered-\\d+\\.jsonl")
                || name.endsWith(".tmp");
        if (!ours) {
          throw new BankCorruptException(
              f, 0, "is not an EmoBank file; move it out of the bank directory");
        }
      }
    }
  }

  /**
   * Removes the temporary files ({@code .NAME.RANDOM.tmp}) that a writer killed between creating
   * and renaming one left behind. A temporary file lives for milliseconds, so only those last
   * modified more than {@link #STALE_TMP} before {@code now} are removed: a concurrent pass's
   * {@code state.json} in the making stays.
   */
  static void removeStaleTemporaries(Path dir, Instant now) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String name = f.getFileName().toString();
        if (name.startsWith(".")
            && name.endsWith(".tmp")
            && Files.getLastModifiedTime(f).toInstant().isBefore(now.minus(STALE_TMP))) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  /** Checks that {@code emotions.jsonl} holds at least the committed bytes. */
  static void checkLength(Path dir, long fileBytes, long committed) throws BankCorruptException {
    if (fileBytes < committed) {
      throw new BankCorruptException(
          dir.resolve(EmoBank.EMOTIONS),
          0,
          "has "
              + fileBytes
              + " bytes but "
              + committed
              + " were committed; it was cut short outside Vigil. Restore it from a backup");
    }
  }

  /** The per-episode totals of {@code episodes.json}, or none yet. */
  static ObjectNode readEpisodes(Path dir) throws BankCorruptException {
    Path episodesFile = dir.resolve(EmoBank.EPISODES);
    if (!Files.exists(episodesFile)) {
      return Retention.emptyEpisodes();
    }
    try {
      return (ObjectNode) MAPPER.readTree(episodesFile.toFile());
    } catch (IOException | ClassCastException e) {
      throw new BankCorruptException(
          episodesFile, 0, "is not a JSON object of episode totals; restore it from a " + "backup");
    }
  }
}
