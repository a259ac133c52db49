package dev.vigil.cli;

/**
 * Options read from the raw arguments before picocli parses them, by the work a command begins on
 * threads of its own while it starts ({@link StartAhead}, {@link FirstCompiler}): {@code --option
 * value} or {@code --option=value}. What picocli refuses later is never an error here.
 */
final class RawArgs {
  private RawArgs() {}

  /** Whether {@code args} name {@code option}, with or without a value. */
  static boolean has(String[] args, String option) {
    for (String a : args) {
      if (a.equals(option) || a.startsWith(option + "=")) {
        return true;
      }
    }
    return false;
  }

  /** The value {@code args} give {@code option} (the first one), or null. */
  static String valueOf(String[] args, String option) {
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals(option) && i + 1 < args.length) {
        return args[i + 1];
      }
      if (args[i].startsWith(option + "=")) {
        return args[i].substring(option.length() + 1);
      }
    }
    return null;
  }
}
