package dev.vigil.observe.agent;

import java.io.File;
import java.io.IOException;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/** The default {@code agent} field: the simple name of the application's main class. */
public final class AgentName {
  private AgentName() {}

  /**
   * From {@code sun.java.command}: the main class, or the {@code Main-Class} of a jar run with
   * {@code -jar}.
   */
  public static String fromCommandLine() {
    String command = System.getProperty("sun.java.command", "").trim();
    String first = firstWord(command);
    String main = first;
    if (first.endsWith(".jar")) {
      main = mainClassOf(new File(first));
    }
    if (main == null || main.isEmpty()) {
      return "java";
    }
    return simpleName(main);
  }

  /**
   * The text before the first white space (what the regular expression {@code \s} matches), found
   * without one: the first event asks for the name, on the path a short process waits for at its
   * exit (docs/DESIGN.md#the-start-path).
   */
  static String firstWord(String command) {
    int end = 0;
    while (end < command.length() && !isSpace(command.charAt(end))) {
      end++;
    }
    return command.substring(0, end);
  }

  private static boolean isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
  }

  static String simpleName(String className) {
    String s = className.substring(className.lastIndexOf('/') + 1);
    return s.substring(s.lastIndexOf('.') + 1);
  }

  private static String mainClassOf(File jar) {
    try (JarFile f = new JarFile(jar, false)) {
      Manifest m = f.getManifest();
      return m == null ? null : m.getMainAttributes().getValue("Main-Class");
    } catch (IOException e) {
      return null;
    }
  }
}
