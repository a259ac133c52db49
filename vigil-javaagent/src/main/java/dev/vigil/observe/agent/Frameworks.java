package dev.vigil.observe.agent;

import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.langchain4j.LangChain4j;
import dev.vigil.observe.springai.SpringAi;
import java.util.List;

/**
 * The agent frameworks Vigil instruments. The only place that names them: the start-up gate, the
 * instrumenter and the recorder know each one only as a {@link Framework}. A framework added here
 * is instrumented from then on.
 */
public final class Frameworks {
  private Frameworks() {}

  /** One instance of each framework, shared by the gate, the instrumenter and the recorder. */
  public static List<Framework> all() {
    return List.of(new LangChain4j(), new SpringAi());
  }
}
