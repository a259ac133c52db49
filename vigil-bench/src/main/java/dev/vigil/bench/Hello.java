package dev.vigil.bench;

/** The smallest application, for the start-up figure. */
public final class Hello {
  private Hello() {}

  public static void main(String[] args) {
    System.out.println("hello");
  }
}
