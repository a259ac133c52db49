package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.expr.MethodCallExpr;
import com.github.javaparser.ast.type.ClassOrInterfaceType;
import com.github.javaparser.ast.type.Type;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The methods declared in a repository that return a future, by name. A call to such a method
 * yields a future, unless it is made on a variable whose declared type the repository does not
 * declare (an executor, a library client with a method of the same name).
 */
final class FutureMethods {
  /** The future types a confirmation comes in. */
  static final Set<String> FUTURE_TYPES =
      Set.of("CompletableFuture", "CompletionStage", "Future", "ListenableFuture");

  /** A method declared somewhere in the repository that returns a future. */
  record FutureMethod(String name, String futureType, String typeArgument) {
    /**
     * True when the method's name or the future's type argument names a receipt or confirmation.
     */
    boolean ofReceipt() {
      return ReceiptWords.in(name) || ReceiptWords.in(typeArgument);
    }
  }

  private final Map<String, FutureMethod> byName;
  private final Function<String, List<CompilationUnit>> unitsMentioning;
  private final Map<String, Boolean> declared = new HashMap<>();

  private FutureMethods(
      Map<String, FutureMethod> byName, Function<String, List<CompilationUnit>> unitsMentioning) {
    this.byName = Map.copyOf(byName);
    this.unitsMentioning = unitsMentioning;
  }

  /**
   * False when {@code source} declares no method returning a future: such a method names its type.
   */
  static boolean mayDeclare(String source) {
    return FUTURE_TYPES.stream().anyMatch(source::contains);
  }

  /**
   * Indexes the methods of a repository; of two methods with one name, one of a receipt wins.
   *
   * @param declaring the parsed files that {@link #mayDeclare} such methods
   * @param unitsMentioning the parsed files whose text has a given word, to find where a type is
   *     declared
   */
  static FutureMethods index(
      List<CompilationUnit> declaring, Function<String, List<CompilationUnit>> unitsMentioning) {
    Map<String, FutureMethod> found = new LinkedHashMap<>();
    for (CompilationUnit unit : declaring) {
      for (MethodDeclaration m : unit.findAll(MethodDeclaration.class)) {
        future(m.getNameAsString(), m.getType())
            .ifPresent(
                method -> {
                  FutureMethod known = found.get(method.name());
                  if (known == null || (!known.ofReceipt() && method.ofReceipt())) {
                    found.put(method.name(), method);
                  }
                });
      }
    }
    return new FutureMethods(found, unitsMentioning);
  }

  private static Optional<FutureMethod> future(String name, Type type) {
    if (!(type instanceof ClassOrInterfaceType c)
        || !FUTURE_TYPES.contains(c.getNameAsString())
        || c.getTypeArguments().isEmpty()) {
      return Optional.empty();
    }
    String argument =
        c.getTypeArguments().get().stream().map(Type::toString).collect(Collectors.joining(", "));
    return Optional.of(new FutureMethod(name, c.getNameAsString(), argument));
  }

  /**
   * False when {@code source} names none of the methods; with {@code ofReceipt}, none of those of a
   * receipt, and none of the others next to a receipt word ({@link ReceiptWords#hinted}).
   */
  boolean mayBeCalledIn(String source, boolean ofReceipt) {
    boolean any = !ofReceipt || ReceiptWords.hinted(source);
    return byName.values().stream()
        .anyMatch(f -> (any || f.ofReceipt()) && source.contains(f.name()));
  }

  /**
   * The repository method {@code call} calls, or null; {@code declaredTypes} are those of the
   * calling file ({@link Syntax#declaredTypes}).
   */
  FutureMethod called(MethodCallExpr call, Map<String, String> declaredTypes) {
    FutureMethod f = byName.get(call.getNameAsString());
    if (f == null) {
      return null;
    }
    String type = declaredTypes.getOrDefault(Syntax.receiverName(call), "");
    return type.isEmpty() || declares(type) ? f : null;
  }

  /**
   * True when the repository declares a type of this simple name (only the files that name it are
   * read).
   */
  private boolean declares(String type) {
    return declared.computeIfAbsent(
        type,
        t ->
            unitsMentioning.apply(t).stream()
                .anyMatch(
                    u ->
                        u.findFirst(TypeDeclaration.class, d -> d.getNameAsString().equals(t))
                            .isPresent()));
  }
}
