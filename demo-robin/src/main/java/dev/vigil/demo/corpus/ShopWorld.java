package dev.vigil.demo.corpus;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One shop session's world: a customer and the orders the session starts from, written into the
 * script's setup (the shop agent loads them before the session).
 */
final class ShopWorld {
  /** The shop's catalogue (as {@code com.example.shop.ShopTools} has it). */
  static final List<String> CATALOGUE =
      List.of(
          "blue enamel mug",
          "green enamel mug",
          "oak desk lamp",
          "walnut desk lamp",
          "linen tea towel",
          "cotton tea towel",
          "steel water bottle",
          "glass water bottle",
          "wool throw blanket",
          "cast iron teapot",
          "ceramic teapot",
          "bamboo cutting board");

  private static final List<String> STREETS =
      List.of(
          "Rue des Lilas",
          "Elm Street",
          "Calle Mayor",
          "Kastanienallee",
          "Via Roma",
          "Church Lane",
          "Baker Street",
          "Avenue Foch");

  /** An order of the session. */
  record Order(
      String id, String customer, String status, List<String> items, double total, String address) {
    String item() {
      return items.get(0);
    }

    String euros() {
      return Pick.euros(total) + " EUR";
    }
  }

  private final Pick p;
  private final ObjectNode setup;
  private final ArrayNode orders;
  private final Set<String> ids = new HashSet<>();
  final String customer;

  ShopWorld(Pick p, Conversation c) {
    this.p = p;
    this.setup = c.setup();
    this.orders = setup.putArray("orders");
    this.customer = "c-" + p.between(10, 999);
    setup.put("failing_refunds", 0);
  }

  /** A new order of the customer, in this status. */
  Order order(String status) {
    String id;
    do {
      id = "A-" + p.between(1000, 9999);
    } while (!ids.add(id));
    List<String> items = new ArrayList<>(List.of(p.of(CATALOGUE)));
    if (p.chance(0.4)) {
      String second = p.of(CATALOGUE);
      if (!items.contains(second)) {
        items.add(second);
      }
    }
    double total = p.between(24, 240) / 2.0;
    Order o = new Order(id, customer, status, List.copyOf(items), total, address());
    ObjectNode n = orders.addObject().put("id", id).put("customer", customer).put("status", status);
    items.forEach(n.putArray("items")::add);
    n.put("total", total).put("address", o.address());
    return o;
  }

  /** A street address. */
  String address() {
    return p.between(1, 120) + " " + p.of(STREETS);
  }

  /** The next {@code n} refunds fail at the payment gateway. */
  void failingRefunds(int n) {
    setup.put("failing_refunds", n);
  }

  /** A catalogue product other than {@code not}. */
  String otherProduct(String not) {
    String other;
    do {
      other = p.of(CATALOGUE);
    } while (other.equals(not));
    return other;
  }
}
