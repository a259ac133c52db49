package dev.vigil.emobank;

import java.nio.file.Path;

/**
 * The EmoBank directory holds something Vigil did not write or cannot read: a corrupt row, a
 * foreign file. Nothing in the directory is changed when this is thrown.
 */
public final class BankCorruptException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long line;

  /**
   * @param file the offending file
   * @param line its 1-based line, or 0 when the whole file is at fault
   */
  public BankCorruptException(Path file, long line, String problem) {
    super(file + (line > 0 ? " line " + line + ": " : " ") + problem);
    this.file = file;
    this.line = line;
  }

  /** The offending file. */
  public Path file() {
    return file;
  }

  /** The 1-based line, or 0. */
  public long line() {
    return line;
  }
}
