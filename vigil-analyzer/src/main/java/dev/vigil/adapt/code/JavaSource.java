package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Java compilation unit read as text, with the structure the strategies need: methods with their bodies, type
 * declarations and lines. Comments and the contents of string, character and text-block literals are masked
 * (replaced by spaces, line breaks kept) in {@link #masked}, so that braces, parentheses and regular expressions see
 * code only; offsets are the same in both texts.
 *
 * <p>This is a reader for well-formed code, not a parser: whatever it cannot place, the strategies leave alone, and
 * the compile check catches what slips through.
 */
final class JavaSource {
  private static final Set<String> NOT_METHOD_NAMES = Set.of("if", "for", "while", "switch", "catch", "synchronized",
      "try", "return", "new", "else", "do", "throw", "case", "assert", "yield");
  private static final Set<String> MODIFIERS = Set.of("public", "protected", "private", "static", "final",
      "synchronized", "abstract", "native", "default", "strictfp", "transient", "volatile", "sealed", "non-sealed");
  private static final Pattern TYPE_DECL =
      Pattern.compile("(?<![\\w.$])(class|interface|enum|record)\\s+([A-Za-z_$][\\w$]*)");
  private static final Pattern WORD_SEPARATORS = Pattern.compile("[_$\\d]+");
  private static final Pattern CAMEL_BOUNDARY = Pattern.compile("(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])");

  /** A method or constructor with a body. {@code returnType} is null for a constructor. */
  record Method(String name, String returnType, boolean isStatic, int headerStart, int paramsOpen,
      int paramsClose, int bodyOpen, int bodyClose) {
    /** True when {@code pos} is inside the body's braces. */
    boolean contains(int pos) {
      return pos > bodyOpen && pos < bodyClose;
    }
  }

  /** A class, interface, enum or record declaration. */
  record TypeDecl(String kind, String name, int headerStart, int bodyOpen, int bodyClose) {
    /** True when {@code pos} is inside the body's braces. */
    boolean contains(int pos) {
      return pos > bodyOpen && pos < bodyClose;
    }
  }

  /** The text with {@code \n} line breaks. */
  final String text;
  /** {@link #text} with comments and literal contents replaced by spaces. */
  final String masked;
  /** The line separator of the original file: {@code \r\n} when every line break was one, else {@code \n}. */
  final String newline;
  private final int[] lineStarts;
  private final List<Method> methods;
  private final List<TypeDecl> types;
  private final java.util.Map<String, String> declaredTypes = new java.util.HashMap<>();

  private JavaSource(String text, String newline) {
    this.text = text;
    this.newline = newline;
    this.masked = mask(text);
    this.lineStarts = lineStarts(text);
    this.types = findTypes();
    this.methods = findMethods();
  }

  /** Reads a file's content; CRLF files are read with {@code \n} and written back with {@link #restore}. */
  static JavaSource parse(String original) {
    boolean crlf = original.contains("\r\n") && original.replace("\r\n", "").indexOf('\n') < 0;
    return crlf ? new JavaSource(original.replace("\r\n", "\n"), "\r\n") : new JavaSource(original, "\n");
  }

  /** A text derived from {@link #text}, with the original file's line separator. */
  String restore(String normalized) {
    return newline.equals("\n") ? normalized : normalized.replace("\n", newline);
  }

  List<Method> methods() {
    return Collections.unmodifiableList(methods);
  }

  List<TypeDecl> types() {
    return Collections.unmodifiableList(types);
  }

  /** The innermost method whose body contains {@code pos}, or null. */
  Method methodAt(int pos) {
    Method best = null;
    for (Method m : methods) {
      if (m.contains(pos) && (best == null || m.bodyOpen() > best.bodyOpen())) {
        best = m;
      }
    }
    return best;
  }

  /** The types whose bodies contain {@code pos}, innermost first. */
  List<TypeDecl> typesAt(int pos) {
    List<TypeDecl> found = new ArrayList<>();
    for (TypeDecl t : types) {
      if (t.contains(pos)) {
        found.add(t);
      }
    }
    found.sort((a, b) -> Integer.compare(b.bodyOpen(), a.bodyOpen()));
    return found;
  }

  /**
   * The simple type name a variable, field or parameter of this name is first declared with in the file
   * ({@code HttpClient} for {@code HttpClient http}), or the empty string when none is found.
   */
  String declaredType(String name) {
    return declaredTypes.computeIfAbsent(name, n -> {
      Matcher m = Pattern.compile("\\b([A-Z][\\w$]*)(?:\\s*<[^;=(){}]*>)?\\s+" + Pattern.quote(n)
          + "\\s*[;=,)]").matcher(masked);
      return m.find() ? m.group(1) : "";
    });
  }

  /** True when {@code pos} is code, not inside a comment or a literal's contents. */
  boolean isCode(int pos) {
    return !Character.isWhitespace(text.charAt(pos)) && masked.charAt(pos) == text.charAt(pos);
  }

  /** 1-based line of an offset. */
  int lineOf(int pos) {
    int lo = 0;
    int hi = lineStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (lineStarts[mid] <= pos) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo + 1;
  }

  int lineCount() {
    return lineStarts.length;
  }

  /** Offset where 1-based line {@code number} starts. */
  int startOfLine(int number) {
    return lineStarts[number - 1];
  }

  /** Offset where the line holding {@code pos} starts. */
  int lineStart(int pos) {
    return lineStarts[lineOf(pos) - 1];
  }

  /** Offset of the line break ending the line holding {@code pos} (or the text's length). */
  int lineEnd(int pos) {
    int nl = text.indexOf('\n', pos);
    return nl < 0 ? text.length() : nl;
  }

  /** The text of a 1-based line, without its line break. */
  String line(int number) {
    int start = lineStarts[number - 1];
    return text.substring(start, lineEnd(start));
  }

  /** The leading white space of the line holding {@code pos}. */
  String indentAt(int pos) {
    int start = lineStart(pos);
    int i = start;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return text.substring(start, i);
  }

  /** The file's indentation step, read from its first member; four spaces when there is none. */
  String indentUnit() {
    for (TypeDecl t : types) {
      int i = t.bodyOpen() + 1;
      while (i < t.bodyClose() && Character.isWhitespace(masked.charAt(i))) {
        i++;
      }
      if (i < t.bodyClose() && lineStart(i) > lineStart(t.bodyOpen())) {
        String member = indentAt(i);
        String outer = indentAt(t.headerStart());
        if (member.startsWith(outer) && member.length() > outer.length()) {
          return member.substring(outer.length());
        }
      }
    }
    return "    ";
  }

  /** True when only white space separates {@code pos} from the start of its line. */
  boolean startsLine(int pos) {
    return masked.substring(lineStart(pos), pos).isBlank();
  }

  /** True when only white space (or a comment) follows {@code pos} (exclusive) on its line. */
  boolean endsLine(int pos) {
    return masked.substring(pos + 1, lineEnd(pos)).isBlank();
  }

  /** The offset of the bracket matching the opening one at {@code open} in the masked text, or -1. */
  int matchForward(int open) {
    char o = masked.charAt(open);
    char c = o == '(' ? ')' : o == '{' ? '}' : o == '[' ? ']' : '>';
    int depth = 0;
    for (int i = open; i < masked.length(); i++) {
      char ch = masked.charAt(i);
      if (ch == o) {
        depth++;
      } else if (ch == c && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** The offset of the bracket matching the closing one at {@code close} in the masked text, or -1. */
  int matchBackward(int close) {
    char c = masked.charAt(close);
    char o = c == ')' ? '(' : c == '}' ? '{' : c == ']' ? '[' : '<';
    int depth = 0;
    for (int i = close; i >= 0; i--) {
      char ch = masked.charAt(i);
      if (ch == c) {
        depth++;
      } else if (ch == o && --depth == 0) {
        return i;
      }
    }
    return -1;
  }

  /** The offset of the first non-white character at or after {@code pos} in the masked text. */
  int skipSpace(int pos) {
    int i = pos;
    while (i < masked.length() && Character.isWhitespace(masked.charAt(i))) {
      i++;
    }
    return i;
  }

  /** The offset of the last non-white character at or before {@code pos} in the masked text, or -1. */
  int skipSpaceBack(int pos) {
    int i = pos;
    while (i >= 0 && Character.isWhitespace(masked.charAt(i))) {
      i--;
    }
    return i;
  }

  /**
   * The statement around a call at {@code pos}, as {@code [start, end]} with {@code end} the offset of its
   * {@code ;}, or null when the call is not part of a plain statement ending in {@code ;} (a condition, a resource,
   * a lambda, a field initializer).
   */
  int[] statementAround(int pos) {
    int boundary = pos - 1;
    while (boundary >= 0 && "{};".indexOf(masked.charAt(boundary)) < 0) {
      boundary--;
    }
    if (boundary >= 0 && masked.charAt(boundary) == ';' && insideParens(boundary)) {
      return null;
    }
    int start = skipSpace(boundary + 1);
    int depth = 0;
    for (int j = start; j < pos; j++) {
      char c = masked.charAt(j);
      if (c == '(' || c == '[') {
        depth++;
      } else if (c == ')' || c == ']') {
        depth--;
      }
    }
    if (depth < 0) {
      return null;
    }
    for (int j = pos; j < masked.length(); j++) {
      char c = masked.charAt(j);
      if (c == '(' || c == '[') {
        depth++;
      } else if (c == ')' || c == ']') {
        if (--depth < 0) {
          return null;
        }
      } else if (c == '{' || c == '}') {
        return null;
      } else if (c == ';' && depth == 0) {
        return masked.substring(start, j).contains("->") ? null : new int[] {start, j};
      }
    }
    return null;
  }

  /** True when the {@code ;} at {@code pos} separates the parts of a {@code for (...)} header. */
  private boolean insideParens(int pos) {
    int depth = 0;
    for (int i = pos - 1; i >= 0; i--) {
      char c = masked.charAt(i);
      if (c == ')') {
        depth++;
      } else if (c == '(') {
        if (--depth < 0) {
          return true;
        }
      } else if (c == '{' || c == '}') {
        return false;
      }
    }
    return false;
  }

  /**
   * True when the statement at {@code pos} sits directly in the method's body or its nested blocks, not in a lambda
   * body, an anonymous class or a switch rule.
   */
  boolean directlyIn(Method m, int pos) {
    for (int i = m.bodyOpen() + 1; i < pos; i++) {
      if (masked.charAt(i) == '{') {
        int close = matchForward(i);
        if (close > pos) {
          int before = skipSpaceBack(i - 1);
          if (before >= 1 && masked.charAt(before) == '>' && masked.charAt(before - 1) == '-') {
            return false;
          }
          if (before >= 0 && masked.charAt(before) == ')') {
            int open = matchBackward(before);
            String head = masked.substring(Math.max(0, open - 200), Math.max(0, open));
            if (head.matches("(?s).*\\bnew\\s+[\\w.$<>,\\s]+$")) {
              return false;
            }
          }
        } else if (close > 0) {
          i = close;
        }
      }
    }
    return true;
  }

  /** The words of a Java identifier, lower case: {@code confirmDeliveryAck} gives confirm, delivery, ack. */
  static List<String> words(String identifier) {
    List<String> words = new ArrayList<>();
    for (String part : WORD_SEPARATORS.split(identifier)) {
      for (String w : CAMEL_BOUNDARY.split(part)) {
        if (!w.isEmpty()) {
          words.add(w.toLowerCase(java.util.Locale.ROOT));
        }
      }
    }
    return words;
  }

  private List<TypeDecl> findTypes() {
    List<TypeDecl> found = new ArrayList<>();
    Matcher m = TYPE_DECL.matcher(masked);
    while (m.find()) {
      int i = m.end();
      int open = -1;
      while (i < masked.length()) {
        char c = masked.charAt(i);
        if (c == '(' || c == '<') {
          int close = matchForward(i);
          if (close < 0) {
            break;
          }
          i = close + 1;
          continue;
        }
        if (c == '{') {
          open = i;
          break;
        }
        if (c == ';' || c == '=' || c == ')' || c == '}') {
          break;
        }
        i++;
      }
      if (open < 0) {
        continue;
      }
      int close = matchForward(open);
      if (close > 0) {
        found.add(new TypeDecl(m.group(1), m.group(2), lineStart(m.start()), open, close));
      }
    }
    return found;
  }

  private List<Method> findMethods() {
    List<Method> found = new ArrayList<>();
    for (int open = masked.indexOf('{'); open >= 0; open = masked.indexOf('{', open + 1)) {
      int close = paramsCloseBefore(open);
      if (close < 0) {
        continue;
      }
      int paramsOpen = matchBackward(close);
      if (paramsOpen <= 0) {
        continue;
      }
      int nameEnd = skipSpaceBack(paramsOpen - 1);
      int nameStart = nameEnd;
      while (nameStart >= 0 && Character.isJavaIdentifierPart(masked.charAt(nameStart))) {
        nameStart--;
      }
      nameStart++;
      if (nameStart > nameEnd) {
        continue;
      }
      String name = masked.substring(nameStart, nameEnd + 1);
      if (NOT_METHOD_NAMES.contains(name) || !Character.isJavaIdentifierStart(name.charAt(0))) {
        continue;
      }
      int typeEnd = skipSpaceBack(nameStart - 1);
      if (typeEnd < 0) {
        continue;
      }
      char t = masked.charAt(typeEnd);
      String returnType = null;
      int headerStart;
      if (t == '.' || t == '(' || t == ',' || t == '=' || t == '!' || t == '&' || t == '|' || t == '?'
          || t == ':' || t == '+' || t == '-') {
        continue;
      }
      if (Character.isJavaIdentifierPart(t) || t == '>' || t == ']') {
        int typeStart = typeStart(typeEnd);
        String type = masked.substring(typeStart, typeEnd + 1).trim();
        String firstWord = type.split("[^\\w$]", 2)[0];
        if (firstWord.equals("new") || firstWord.equals("record") || firstWord.equals("class")
            || firstWord.equals("enum") || firstWord.equals("interface") || firstWord.equals("return")
            || firstWord.equals("throw")) {
          continue;
        }
        if (MODIFIERS.contains(type)) {
          headerStart = lineStart(typeStart);
        } else {
          returnType = type.replaceAll("\\s+", " ");
          headerStart = lineStart(typeStart);
        }
      } else {
        headerStart = lineStart(nameStart);
      }
      int bodyClose = matchForward(open);
      if (bodyClose < 0) {
        continue;
      }
      boolean isStatic = masked.substring(headerStart, nameStart).matches("(?s).*\\bstatic\\b.*");
      found.add(new Method(name, returnType, isStatic, headerStart, paramsOpen, close, open, bodyClose));
    }
    return found;
  }

  /**
   * The {@code )} closing a parameter list right before the brace at {@code open}, possibly followed by a
   * {@code throws} clause; -1 when there is none.
   */
  private int paramsCloseBefore(int open) {
    int i = skipSpaceBack(open - 1);
    if (i < 0) {
      return -1;
    }
    if (masked.charAt(i) == ')') {
      return i;
    }
    int j = i;
    while (j >= 0 && open - j < 400 && (Character.isJavaIdentifierPart(masked.charAt(j))
        || ".,<> \t\n\r".indexOf(masked.charAt(j)) >= 0)) {
      j--;
    }
    if (j < 0 || masked.charAt(j) != ')') {
      return -1;
    }
    String between = masked.substring(j + 1, i + 1).strip();
    boolean throwsClause = between.startsWith("throws") && between.length() > 6
        && Character.isWhitespace(between.charAt(6));
    return throwsClause ? j : -1;
  }

  /** Where the type ending at {@code end} starts: an identifier chain with generics and array brackets. */
  private int typeStart(int end) {
    int i = end;
    while (i >= 0) {
      char c = masked.charAt(i);
      if (c == '>' || c == ']') {
        int open = matchBackward(i);
        if (open < 0) {
          return i + 1;
        }
        i = skipSpaceBack(open - 1);
        continue;
      }
      if (Character.isJavaIdentifierPart(c)) {
        while (i >= 0 && Character.isJavaIdentifierPart(masked.charAt(i))) {
          i--;
        }
        int prev = skipSpaceBack(i);
        if (prev >= 0 && masked.charAt(prev) == '.') {
          i = skipSpaceBack(prev - 1);
          continue;
        }
        return i + 1;
      }
      return i + 1;
    }
    return 0;
  }

  private static int[] lineStarts(String text) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n' && i + 1 <= text.length()) {
        starts.add(i + 1);
      }
    }
    if (starts.size() > 1 && starts.get(starts.size() - 1) == text.length()) {
      starts.remove(starts.size() - 1);
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Comments and literal contents replaced by spaces; quotes and line breaks stay. */
  static String mask(String s) {
    char[] m = s.toCharArray();
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      char next = i + 1 < n ? s.charAt(i + 1) : 0;
      if (c == '/' && next == '/') {
        int j = i;
        while (j < n && s.charAt(j) != '\n') {
          m[j++] = ' ';
        }
        i = j;
      } else if (c == '/' && next == '*') {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        blank(m, s, i, end);
        i = end;
      } else if (s.startsWith("\"\"\"", i)) {
        int k = i + 3;
        while (k < n && !s.startsWith("\"\"\"", k)) {
          k += s.charAt(k) == '\\' ? 2 : 1;
        }
        blank(m, s, i + 3, Math.min(k, n));
        i = Math.min(k + 3, n);
      } else if (c == '"' || c == '\'') {
        int k = i + 1;
        while (k < n && s.charAt(k) != c && s.charAt(k) != '\n') {
          k += s.charAt(k) == '\\' ? 2 : 1;
        }
        blank(m, s, i + 1, Math.min(k, n));
        i = Math.min(k + 1, n);
      } else {
        i++;
      }
    }
    return new String(m);
  }

  private static void blank(char[] m, String s, int from, int to) {
    for (int j = from; j < to; j++) {
      if (s.charAt(j) != '\n') {
        m[j] = ' ';
      }
    }
  }
}
