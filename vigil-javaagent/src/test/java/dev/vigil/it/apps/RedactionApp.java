package dev.vigil.it.apps;

import java.util.Map;

/** Passes secrets as arguments of included methods. */
public final class RedactionApp {
  /** The included methods. */
  public static final class Account {
    public String login(String user, String password) {
      return "welcome " + user;
    }

    public int headers(Map<String, String> headers) {
      return headers.size();
    }

    public String note(String text) {
      return "noted " + text.length();
    }
  }

  public static void main(String[] args) {
    Account a = new Account();
    System.out.println(a.login("ada", args[0]));
    System.out.println(
        a.headers(Map.of("Authorization", "Basic " + args[1], "Accept", "text/plain")));
    System.out.println(a.note("my key is " + args[2] + " keep it safe"));
  }

  private RedactionApp() {}
}
