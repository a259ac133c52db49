package dev.vigil.report;

import io.pebbletemplates.pebble.PebbleEngine;
import io.pebbletemplates.pebble.error.PebbleException;
import io.pebbletemplates.pebble.loader.ClasspathLoader;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Locale;
import java.util.Map;

/**
 * The Pebble templates of Vigil's HTML pages ({@code report.html}, {@code watch}'s {@code
 * index.html}, the fleet's overview), read from the classpath by their full resource name, for
 * example {@code dev/vigil/report/report.peb}. Every value a template prints is escaped for HTML
 * unless the template says otherwise (none does), so a tool argument holding {@code <script>} shows
 * as text. Numbers are formatted in {@link Locale#ROOT}; a template that names a variable its model
 * lacks fails rather than printing nothing.
 */
public final class HtmlTemplates {
  private static final PebbleEngine ENGINE =
      new PebbleEngine.Builder()
          .loader(new ClasspathLoader(HtmlTemplates.class.getClassLoader()))
          .strictVariables(true)
          .defaultLocale(Locale.ROOT)
          .addEscapingStrategy("html", new HtmlText())
          .build();

  private HtmlTemplates() {}

  /**
   * Compiles a template ahead of its first {@link #render} (the engine keeps it), for example on a
   * second thread while a pass reads its events.
   *
   * @throws IllegalStateException if it does not compile
   */
  public static void prepare(String template) {
    try {
      ENGINE.getTemplate(template);
    } catch (PebbleException e) {
      throw new IllegalStateException(
          "template " + template + " could not be compiled: " + e.getMessage(), e);
    }
  }

  /**
   * Renders a template.
   *
   * @param template its resource name on the classpath
   * @param model the variables it reads
   */
  public static String render(String template, Map<String, Object> model) {
    StringWriter w = new StringWriter();
    try {
      ENGINE.getTemplate(template).evaluate(w, model);
    } catch (IOException | PebbleException e) {
      throw new IllegalStateException(
          "template " + template + " could not be rendered: " + e.getMessage(), e);
    }
    return w.toString();
  }
}
