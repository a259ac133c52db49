package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What a streaming detector found, as it builds up in memory that does not grow with the window: it
 * counts the instances, hands each derived event to the pass's sink at once, keeps the newest
 * {@value #MAX_CITED} events cited and the newest {@value #MAX_CITED} entries of each evidence list
 * ({@code <list>_total} says how many there were).
 */
public final class Findings {
  /** Events cited, and entries of one evidence list, kept per detection. */
  public static final int MAX_CITED = 50;

  private final String name;
  private final Consumer<Derived> out;
  private final Newest<WindowEvent> cited = new Newest<>(MAX_CITED);
  private final Map<String, Newest<ObjectNode>> lists = new LinkedHashMap<>();
  private int count;

  /**
   * @param name the detector's name
   * @param out the sink of derived events
   */
  public Findings(String name, Consumer<Derived> out) {
    this.name = name;
    this.out = out;
  }

  /**
   * One instance: the derived event about {@code source} goes to the sink, and {@code source} is
   * cited.
   */
  public void derive(WindowEvent source, Event derived) {
    count++;
    out.accept(new Derived(derived, source.identity()));
    cite(source);
  }

  /** Cites an event (the newest {@value #MAX_CITED} cited are kept for the report). */
  public void cite(WindowEvent event) {
    WindowEvent last = cited.last();
    if (last == null || last.ref() != event.ref()) {
      cited.add(event);
    }
  }

  /**
   * A new entry of the evidence list {@code list}, kept if among its newest {@value #MAX_CITED}.
   */
  public ObjectNode entry(String list) {
    return lists
        .computeIfAbsent(list, k -> new Newest<>(MAX_CITED))
        .addReusing(old -> old == null ? JsonNodeFactory.instance.objectNode() : old.removeAll());
  }

  /** Instances so far. */
  public int count() {
    return count;
  }

  /**
   * The detection: {@code evidence} gets each list (newest entries, oldest first) and its total.
   *
   * @param summary one sentence for people; ignored (empty) when nothing was found
   */
  public Detection detection(ObjectNode evidence, String summary) {
    lists.forEach(
        (list, entries) -> {
          ArrayNode a = evidence.putArray(list);
          entries.items().forEach(a::add);
          evidence.put(list + "_total", entries.total());
        });
    Set<Long> refs = new LinkedHashSet<>();
    List<WindowEvent> events = cited.items().stream().filter(w -> refs.add(w.ref())).toList();
    return new Detection(name, count, evidence, count == 0 ? "" : summary, List.of(), events);
  }
}
