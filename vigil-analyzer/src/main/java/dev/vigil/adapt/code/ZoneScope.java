package dev.vigil.adapt.code;

import com.github.javaparser.Position;
import com.github.javaparser.ast.Node;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.FieldDeclaration;
import com.github.javaparser.ast.body.Parameter;
import com.github.javaparser.ast.body.RecordDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.body.VariableDeclarator;
import java.util.List;
import java.util.Set;

/**
 * Finds the time zone a piece of code already knows: a {@code ZoneId} (or {@code ZoneOffset})
 * parameter of the enclosing method, a local declared before the position, a record component, or a
 * field of an enclosing type (a static one from a static method or an outer type). The nearest
 * wins.
 */
final class ZoneScope {
  private static final Set<String> ZONE_TYPES = Set.of("ZoneId", "ZoneOffset");

  private ZoneScope() {}

  /** The name of a zone in scope at {@code at}, which sits in {@code callable}, or null. */
  static String find(CallableDeclaration<?> callable, Node at) {
    for (Parameter p : callable.getParameters()) {
      if (Syntax.isClassType(p.getType(), ZONE_TYPES)) {
        return p.getNameAsString();
      }
    }
    Position position = at.getBegin().orElseThrow();
    String local = null;
    List<VariableDeclarator> locals =
        Syntax.body(callable).map(b -> b.findAll(VariableDeclarator.class)).orElse(List.of());
    for (VariableDeclarator v : locals) {
      if (Syntax.isClassType(v.getType(), ZONE_TYPES)
          && v.getInitializer().isPresent()
          && v.getName().getEnd().orElseThrow().isBefore(position)) {
        local = v.getNameAsString();
      }
    }
    if (local != null) {
      return local;
    }
    boolean onlyStatic = callable.isStatic();
    for (Node n = callable.getParentNode().orElse(null);
        n != null;
        n = n.getParentNode().orElse(null)) {
      if (!(n instanceof TypeDeclaration<?> type)) {
        continue;
      }
      if (type instanceof RecordDeclaration record && !onlyStatic) {
        for (Parameter component : record.getParameters()) {
          if (Syntax.isClassType(component.getType(), ZONE_TYPES)) {
            return component.getNameAsString();
          }
        }
      }
      for (FieldDeclaration field : type.getFields()) {
        if (Syntax.isClassType(field.getElementType(), ZONE_TYPES)
            && (field.isStatic() || !onlyStatic)) {
          return field.getVariable(0).getNameAsString();
        }
      }
      onlyStatic = true;
    }
    return null;
  }
}
