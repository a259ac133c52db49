package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.ImportDeclaration;
import com.github.javaparser.ast.NodeList;
import com.github.javaparser.ast.expr.AnnotationExpr;
import com.github.javaparser.ast.expr.NameExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Adds single-type imports in sorted position among those a file has, and drops one a rewrite left
 * unused.
 */
final class Imports {
  private Imports() {}

  /** True when {@code fqn} is usable by its simple name without a new import. */
  static boolean available(CompilationUnit unit, String fqn) {
    String pkg = fqn.substring(0, fqn.lastIndexOf('.'));
    if (pkg.equals("java.lang")
        || unit.getPackageDeclaration().map(p -> p.getNameAsString().equals(pkg)).orElse(false)) {
      return true;
    }
    return unit.getImports().stream()
        .anyMatch(i -> !i.isStatic() && name(i).equals(i.isAsterisk() ? pkg + ".*" : fqn));
  }

  /**
   * Imports each of {@code fqns} the file does not import yet, before the first single-type or
   * on-demand import that sorts after it, else after the last one (static imports keep their
   * place).
   */
  static void ensure(JavaFile file, String... fqns) {
    CompilationUnit unit = file.unit();
    List<String> missing = new ArrayList<>();
    for (String fqn : fqns) {
      if (!available(unit, fqn) && !missing.contains(fqn)) {
        missing.add(fqn);
      }
    }
    missing.sort(null);
    for (String fqn : missing) {
      file.edit();
      NodeList<ImportDeclaration> imports = unit.getImports();
      int at = -1;
      int afterLast = 0;
      for (int i = 0; i < imports.size(); i++) {
        ImportDeclaration existing = imports.get(i);
        if (!existing.isStatic()) {
          afterLast = i + 1;
          if (at < 0 && name(existing).compareTo(fqn) > 0) {
            at = i;
          }
        }
      }
      add(imports, at >= 0 ? at : afterLast, fqn);
    }
  }

  /**
   * Adds an import at {@code index}. The printer puts a first import right under the package line,
   * before the blank line, so a new first import goes second, and the two swap names.
   */
  private static void add(NodeList<ImportDeclaration> imports, int index, String fqn) {
    if (index > 0 || imports.isEmpty()) {
      imports.add(index, new ImportDeclaration(fqn, false, false));
      return;
    }
    ImportDeclaration first = imports.get(0);
    imports.add(
        1, new ImportDeclaration(first.getNameAsString(), first.isStatic(), first.isAsterisk()));
    first.setName(fqn);
    first.setStatic(false);
    first.setAsterisk(false);
  }

  /**
   * Removes the single-type import of {@code fqn} when nothing in the file names the type by its
   * simple name.
   */
  static void dropIfUnused(JavaFile file, String fqn) {
    CompilationUnit unit = file.unit();
    String simple = fqn.substring(fqn.lastIndexOf('.') + 1);
    Optional<ImportDeclaration> imported =
        unit.getImports().stream()
            .filter(i -> !i.isStatic() && !i.isAsterisk() && i.getNameAsString().equals(fqn))
            .findFirst();
    boolean used =
        unit.findAll(NameExpr.class).stream().anyMatch(n -> n.getNameAsString().equals(simple))
            || unit.findAll(ClassOrInterfaceType.class).stream()
                .anyMatch(t -> t.getScope().isEmpty() && t.getNameAsString().equals(simple))
            || unit.findAll(AnnotationExpr.class).stream()
                .anyMatch(a -> a.getNameAsString().equals(simple));
    if (imported.isPresent() && !used) {
      file.edit();
      imported.get().remove();
    }
  }

  private static String name(ImportDeclaration i) {
    return i.getNameAsString() + (i.isAsterisk() ? ".*" : "");
  }
}
