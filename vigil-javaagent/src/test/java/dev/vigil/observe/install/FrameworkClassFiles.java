package dev.vigil.observe.install;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The class files of the frameworks' jars on the test class path (LangChain4j, Spring AI, Spring's
 * core and context, Jackson's databind) and of the test applications: thousands of classes compiled
 * by others, to read as the instrumenter does.
 */
final class FrameworkClassFiles {
  /** A class file's internal name and bytes. */
  // a carrier of a class file's bytes, never compared or hashed
  @SuppressWarnings("ArrayRecordComponent")
  record ClassFile(String internalName, byte[] bytes) {}

  private FrameworkClassFiles() {}

  static List<ClassFile> all() throws IOException {
    List<ClassFile> out = new ArrayList<>();
    String path =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    for (String entry : path.split(File.pathSeparator, -1)) {
      Path p = Path.of(entry);
      String file = p.getFileName().toString();
      if (file.endsWith(".jar")
          && (file.startsWith("langchain4j")
              || file.startsWith("spring-ai")
              || file.startsWith("spring-core")
              || file.startsWith("spring-context")
              || file.startsWith("jackson-databind"))) {
        try (JarFile jar = new JarFile(p.toFile())) {
          for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
            String name = e.getName();
            if (name.endsWith(".class")
                && !name.startsWith("META-INF")
                && !name.endsWith("module-info.class")
                && !name.endsWith("package-info.class")) {
              try (InputStream in = jar.getInputStream(e)) {
                out.add(new ClassFile(name.substring(0, name.length() - 6), in.readAllBytes()));
              }
            }
          }
        }
      } else if (p.endsWith("test-classes")) {
        Path apps = p.resolve("dev/vigil/it/apps");
        try (Stream<Path> files = Files.walk(apps)) {
          files
              .filter(f -> f.toString().endsWith(".class"))
              .forEach(
                  f -> {
                    String rel = p.relativize(f).toString().replace(File.separatorChar, '/');
                    try {
                      out.add(
                          new ClassFile(rel.substring(0, rel.length() - 6), Files.readAllBytes(f)));
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
        }
      }
    }
    return out;
  }
}
