package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar opens to {@code java -jar} the JDK package whose bean of the diagnostic commands
 * {@link FirstCompiler} takes without the platform's bean server; without it every {@code run}
 * would start that server (docs/COMMANDS.md#the-compiler-of-a-one-off-pass).
 */
class FirstCompilerIT {
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"))
          .toAbsolutePath();

  @Test
  void theJarsManifestOpensTheDiagnosticCommandsPackage() throws Exception {
    try (JarFile jar = new JarFile(JAR.toFile())) {
      String opens = jar.getManifest().getMainAttributes().getValue("Add-Opens");
      List<String> packages = List.of(opens.trim().split("\\s+"));
      String commands = FirstCompiler.COMMANDS_CLASS;
      String pkg = commands.substring(0, commands.lastIndexOf('.'));
      assertTrue(packages.contains("jdk.management/" + pkg), opens);
    }
  }
}
