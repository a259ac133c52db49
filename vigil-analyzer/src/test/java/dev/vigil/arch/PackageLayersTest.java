package dev.vigil.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The analyzer's packages form layers that depend only downward, and no two packages depend on each
 * other. The layers, lowest first, are {@link #LAYERS}: each may use those before it, never those
 * after it. Tests are held to the same rule, so that a test of a formula never reaches up into the
 * pipeline.
 */
class PackageLayersTest {
  /**
   * The layers, lowest first: the picture in docs/CONTRIBUTING.md, "Package layers". The event
   * contract's {@code dev.vigil.observe}, below them all, is another module's: it cannot see the
   * analyzer at all, and Maven hands it to these tests as a jar in one build and as a folder in
   * another, so it is not a layer checked here.
   */
  static final List<String> LAYERS =
      List.of(
          "io",
          "ingest",
          "dialogue",
          "appraise",
          "emobank",
          "diagnose",
          "learn",
          "adapt",
          "orchestrate",
          "report",
          "fleet",
          "api",
          "eval",
          "watch",
          "kafka",
          "cli");

  /**
   * The analyzer's own classes, main and test: not its dependencies, whether Maven gives them as
   * jars or folders.
   */
  private static final JavaClasses CLASSES =
      new ClassFileImporter()
          .withImportOption(location -> !location.isJar() && location.contains("/vigil-analyzer/"))
          .importPackages("dev.vigil");

  private static String pkg(String layer) {
    return "dev.vigil." + layer + "..";
  }

  @Test
  void eachLayerUsesOnlyTheLayersBelowIt() {
    for (int i = 0; i < LAYERS.size() - 1; i++) {
      String[] above =
          LAYERS.subList(i + 1, LAYERS.size()).stream()
              .map(PackageLayersTest::pkg)
              .toArray(String[]::new);
      noClasses()
          .that()
          .resideInAPackage(pkg(LAYERS.get(i)))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(above)
          .because(
              LAYERS.get(i)
                  + " lies below "
                  + Arrays.toString(LAYERS.subList(i + 1, LAYERS.size()).toArray()))
          .check(CLASSES);
    }
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("dev.vigil.(**)").should().beFreeOfCycles().check(CLASSES);
  }

  @Test
  void everyClassLiesInALayer() {
    List<String> allowed = new ArrayList<>(LAYERS.stream().map(PackageLayersTest::pkg).toList());
    allowed.addAll(
        List.of("dev.vigil.arch..", "dev.vigil.it..")); // these rules; the ITs' applications
    classes()
        .that()
        .resideInAPackage("dev.vigil..")
        .should()
        .resideInAnyPackage(allowed.toArray(String[]::new))
        .because("a package outside the layers would escape the rules above")
        .check(CLASSES);
  }
}
