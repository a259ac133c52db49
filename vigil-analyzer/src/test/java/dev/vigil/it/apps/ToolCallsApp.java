package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.service.tool.DefaultToolExecutor;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * A LangChain4j agent driven line by line from stdin, so that a test decides when each tool call
 * happens: {@code ok N} makes N successful calls, {@code fail N} N calls that throw; end of input
 * ends the process. Prints {@code done <total>} after each line. Knows nothing of Vigil.
 */
public final class ToolCallsApp {
  /** The agent's tools. */
  public static final class Tools {
    @Tool("Looks something up")
    public String lookUp(String what) {
      return "found " + what;
    }

    // fails on purpose: the application shows a tool call that throws
    @SuppressWarnings("DoNotCallSuggester")
    @Tool("Books a slot; the backend is down")
    public String bookSlot(String when) {
      throw new IllegalStateException("booking backend unavailable for " + when);
    }
  }

  public static void main(String[] args) throws Exception {
    Tools tools = new Tools();
    DefaultToolExecutor ok =
        new DefaultToolExecutor(tools, Tools.class.getMethod("lookUp", String.class));
    Method book = Tools.class.getMethod("bookSlot", String.class);
    DefaultToolExecutor fail = new DefaultToolExecutor(tools, book);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    int total = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.trim().split("\\s+", -1);
      if (parts.length < 2) {
        continue;
      }
      int n = Integer.parseInt(parts[1]);
      for (int i = 0; i < n; i++) {
        total++;
        boolean failing = parts[0].equals("fail");
        ToolExecutionRequest request =
            ToolExecutionRequest.builder()
                .id("call-" + total)
                .name(failing ? "bookSlot" : "lookUp")
                .arguments(
                    failing
                        ? "{\"when\":\"slot " + total + "\"}"
                        : "{\"what\":\"item " + total + "\"}")
                .build();
        (failing ? fail : ok).execute(request, "user-1");
      }
      System.out.println("done " + total);
      System.out.flush();
    }
  }

  private ToolCallsApp() {}
}
