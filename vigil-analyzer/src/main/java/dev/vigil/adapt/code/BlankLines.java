package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.printer.lexicalpreservation.LexicalPreservingPrinter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The blank lines a rewrite needs and {@link LexicalPreservingPrinter} cannot write: a blank line
 * is no node, so the printer keeps the ones it read and makes up the rest
 * (javaparser/javaparser#4672). It makes up two that a rewrite sees: before a member added at the
 * end of a type, the line in between carries the indentation; and the imports added to a file that
 * had none go right under the package line, with the blank line after them. This class empties the
 * first and moves the second. Each repair applies only where the printed text has that exact shape,
 * so a printer that gets it right is left alone.
 */
final class BlankLines {
  private static final Pattern IMPORT_LINES =
      Pattern.compile("(\\r?\\n)((?:import [^;\\n]*;\\r?\\n)+)");

  private final CompilationUnit unit;
  private final boolean hadImports;
  private final List<String> memberStarts = new ArrayList<>();

  BlankLines(CompilationUnit unit) {
    this.unit = unit;
    this.hadImports = !unit.getImports().isEmpty();
  }

  /**
   * Records a member added with {@code firstLine} (its Javadoc), to be preceded by an empty line.
   */
  void beforeMember(String firstLine) {
    memberStarts.add(firstLine);
  }

  /** The printed source with its added blank lines as a person would write them. */
  String restore(String printed) {
    String out = printed;
    for (String start : memberStarts) {
      out =
          out.replaceFirst("(\\r?\\n)[ \\t]+(\\r?\\n[ \\t]*" + Pattern.quote(start) + ")", "$1$2");
    }
    if (!hadImports && !unit.getImports().isEmpty() && unit.getPackageDeclaration().isPresent()) {
      out = blankLineBeforeImports(out);
    }
    return out;
  }

  /**
   * {@code package p;⏎import a;⏎import b;⏎⏎class} becomes {@code package p;⏎⏎import a;⏎import
   * b;⏎class}.
   */
  private String blankLineBeforeImports(String printed) {
    String pkg = LexicalPreservingPrinter.print(unit.getPackageDeclaration().get());
    int end = printed.indexOf(pkg);
    if (end < 0) {
      return printed;
    }
    end += pkg.length();
    Matcher m = IMPORT_LINES.matcher(printed).region(end, printed.length());
    if (!m.lookingAt()) {
      return printed;
    }
    String nl = m.group(1);
    String imports = m.group(2);
    String last = imports.endsWith("\r\n") ? "\r\n" : "\n";
    return printed.substring(0, end)
        + nl
        + nl
        + imports.substring(0, imports.length() - last.length())
        + printed.substring(m.end());
  }
}
