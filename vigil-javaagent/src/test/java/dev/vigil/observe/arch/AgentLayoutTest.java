package dev.vigil.observe.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The agent's packages, laid out by concern (docs/CONTRIBUTING.md, "The agent's packages"): {@code
 * bridge} on the application's class path, alone; {@code agent} (configuration, start) under
 * everything else and wiring it together; {@code capture} (what runs on the application's threads),
 * {@code install} (what decides and transforms) and {@code writer} (what builds and appends events)
 * beside one another; one package per framework, reached only through the {@code Framework}
 * interface.
 */
class AgentLayoutTest {
  /**
   * The framework packages: each knows one framework, and only {@code agent.Frameworks} names them.
   */
  static final List<String> FRAMEWORKS = List.of("langchain4j", "springai");

  /** The agent's main classes. */
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .withImportOption(location -> !location.isJar())
          .importPackages("dev.vigil.observe");

  private static String pkg(String name) {
    return "dev.vigil.observe." + name + "..";
  }

  @Test
  void frameworkPackagesNeverDependOnEachOtherNorOnTheWriterTheInstallerOrTheStart() {
    for (String f : FRAMEWORKS) {
      for (String other : FRAMEWORKS) {
        if (!other.equals(f)) {
          noClasses()
              .that()
              .resideInAPackage(pkg(f))
              .should()
              .dependOnClassesThat()
              .resideInAPackage(pkg(other))
              .check(MAIN);
        }
      }
      noClasses()
          .that()
          .resideInAPackage(pkg(f))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(pkg("writer"), pkg("install"), pkg("agent"))
          .because("a framework is read through the Framework interface of capture alone")
          .check(MAIN);
    }
  }

  @Test
  void onlyTheStartNamesAFramework() {
    String[] frameworks = FRAMEWORKS.stream().map(AgentLayoutTest::pkg).toArray(String[]::new);
    for (String concern : List.of("bridge", "capture", "install", "writer")) {
      noClasses()
          .that()
          .resideInAPackage(pkg(concern))
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(frameworks)
          .because(
              "the gate, the instrumenter, the recorder and the writer know a framework only as a Framework")
          .check(MAIN);
    }
  }

  @Test
  void theBridgeDependsOnNothingOfVigil() {
    classes()
        .that()
        .resideInAPackage(pkg("bridge"))
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(pkg("bridge"), "java..")
        .because("the bridge is all the application sees; it is loaded by the system class loader")
        .check(MAIN);
  }

  @Test
  void captureInstallAndWriterStayApart() {
    noClasses()
        .that()
        .resideInAPackage(pkg("capture"))
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(pkg("install"), pkg("writer"))
        .because(
            "the recorders hand what they capture to a CaptureSink, and know nothing of transforming")
        .check(MAIN);
    noClasses()
        .that()
        .resideInAPackage(pkg("install"))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(pkg("writer"))
        .check(MAIN);
    noClasses()
        .that()
        .resideInAPackage(pkg("writer"))
        .should()
        .dependOnClassesThat()
        .resideInAPackage(pkg("install"))
        .check(MAIN);
  }
}
