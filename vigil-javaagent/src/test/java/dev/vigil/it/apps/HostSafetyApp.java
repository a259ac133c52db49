package dev.vigil.it.apps;

/**
 * Calls included methods with arguments that are hard to capture; prints what the methods return.
 */
public final class HostSafetyApp {
  /** An argument with no fields to read, whose toString throws. */
  public static final class Evil {
    @Override
    public String toString() {
      throw new IllegalStateException("toString is not for you");
    }
  }

  /** A node of a self-referencing graph whose toString recurses forever. */
  public static final class Node {
    Node next;
    final String name;

    Node(String name) {
      this.name = name;
    }

    @Override
    public String toString() {
      return name + "->" + next;
    }
  }

  /** The included methods. */
  public static final class Service {
    public String take(Object value) {
      return "took " + value.getClass().getSimpleName();
    }

    public int length(String text) {
      return text.length();
    }

    public String fail(String why) {
      throw new IllegalArgumentException(why);
    }
  }

  public static void main(String[] args) {
    Service s = new Service();
    String mode = args.length > 0 ? args[0] : "plain";
    switch (mode) {
      case "evil" -> System.out.println(s.take(new Evil()));
      case "cycle" -> {
        Node a = new Node("a");
        Node b = new Node("b");
        a.next = b;
        b.next = a;
        System.out.println(s.take(a));
      }
      case "big" -> System.out.println(s.length("x".repeat(10 * 1024 * 1024)));
      default -> {
        System.out.println(s.length("hello"));
        try {
          s.fail("on purpose");
        } catch (IllegalArgumentException e) {
          System.out.println("caught " + e.getMessage());
        }
      }
    }
    System.exit(mode.equals("plain") ? 3 : 0);
  }

  private HostSafetyApp() {}
}
