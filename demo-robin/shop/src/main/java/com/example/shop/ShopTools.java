package com.example.shop;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The shop's tools: three that read (orders, products) and four that write (cancel, refund, exchange, change the
 * address). The tools guard what the back office guards (a shipped order cannot be cancelled or re-addressed, unless
 * staff override it; a refund cannot exceed the total); the policy in the prompt asks for more than they check
 * (confirmation before any write; no refund of a shipped order).
 */
public final class ShopTools {
  private static final List<String> CATALOGUE = List.of("blue enamel mug", "green enamel mug", "oak desk lamp",
      "walnut desk lamp", "linen tea towel", "cotton tea towel", "steel water bottle", "glass water bottle",
      "wool throw blanket", "cast iron teapot", "ceramic teapot", "bamboo cutting board");
  private static final Set<String> LOCKED = Set.of("shipped", "delivered", "cancelled", "refunded");

  private final OrderStore store;

  public ShopTools(OrderStore store) {
    this.store = store;
  }

  @Tool(name = "get_order", value = "Looks up one order by its number")
  public Order getOrder(@P("the order number, e.g. A-1042") String orderId) {
    return store.get(orderId);
  }

  @Tool(name = "list_orders", value = "Lists a customer's orders")
  public List<Order> listOrders(@P("the customer's id, e.g. c-17") String customer) {
    return store.of(customer);
  }

  @Tool(name = "search_products", value = "Searches the catalogue")
  public List<String> searchProducts(@P("words to look for") String query) {
    String q = query.toLowerCase(Locale.ROOT);
    return CATALOGUE.stream().filter(p -> List.of(q.split("\\s+")).stream().anyMatch(p::contains)).toList();
  }

  @Tool(name = "cancel_order", value = "Cancels a pending order")
  public Order cancelOrder(@P("the order number") String orderId, @P("why the customer cancels") String reason,
      @P(value = "staff only: skip the eligibility check", required = false) Boolean override) {
    Order o = store.get(orderId);
    if (LOCKED.contains(o.status()) && !Boolean.TRUE.equals(override)) {
      throw new IllegalStateException("order " + orderId + " is " + o.status() + " and can no longer be cancelled");
    }
    return store.put(o.withStatus("cancelled"));
  }

  @Tool(name = "refund_order", value = "Refunds an order, in full or in part")
  public Refund refundOrder(@P("the order number") String orderId, @P("the amount in euros") double amount,
      @P("why") String reason) {
    Order o = store.get(orderId);
    if (amount <= 0 || amount > o.total()) {
      throw new IllegalArgumentException(String.format(Locale.ROOT,
          "a refund of %.2f is not possible: order %s totals %.2f", amount, orderId, o.total()));
    }
    store.charge(orderId);
    store.put(o.withStatus("refunded"));
    return new Refund(orderId, amount, "refunded");
  }

  @Tool(name = "exchange_item", value = "Exchanges one item of a delivered order for another product")
  public Order exchangeItem(@P("the order number") String orderId, @P("the item to send back") String item,
      @P("the product wanted instead") String newItem) {
    Order o = store.get(orderId);
    if (!o.items().contains(item)) {
      throw new IllegalArgumentException("order " + orderId + " has no item \"" + item + "\"");
    }
    if (!CATALOGUE.contains(newItem)) {
      throw new IllegalArgumentException("no product \"" + newItem + "\" in the catalogue");
    }
    return store.put(o.withItem(item, newItem));
  }

  @Tool(name = "update_address", value = "Changes the delivery address of an order that has not shipped")
  public Order updateAddress(@P("the order number") String orderId, @P("the new address") String address) {
    Order o = store.get(orderId);
    if (LOCKED.contains(o.status())) {
      throw new IllegalStateException("order " + orderId + " is " + o.status() + ": its address is locked");
    }
    return store.put(o.withAddress(address));
  }
}
