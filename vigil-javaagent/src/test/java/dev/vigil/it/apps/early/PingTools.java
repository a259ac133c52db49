package dev.vigil.it.apps.early;

import dev.langchain4j.agent.tool.Tool;

/** A LangChain4j tool class, loaded for the first time by the call in {@code main}. */
public final class PingTools {
  @Tool("Answers a ping")
  public String ping(String who) {
    return "pong " + who;
  }
}
