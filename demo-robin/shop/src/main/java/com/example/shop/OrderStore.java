package com.example.shop;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shop's orders, and its payment gateway's health. Each conversation of the corpus starts from its own orders
 * ({@link #reset}); the gateway may refuse the next refunds, each time in other words, as real gateways do.
 */
public final class OrderStore {
  private static final List<String> GATEWAY_DOWN = List.of(
      "payment gateway unavailable: the refund could not be processed",
      "the refund could not be processed because the payment gateway is unavailable",
      "refund not processed: payment gateway still unavailable",
      "the payment gateway is unavailable, so no refund was processed");

  private final Map<String, Order> orders = new LinkedHashMap<>();
  private int gatewayFailures;
  private int gatewayRefusals;

  /** Starts over with these orders; the next {@code failingRefunds} refunds fail at the gateway. */
  public synchronized void reset(List<Order> start, int failingRefunds) {
    orders.clear();
    start.forEach(o -> orders.put(o.id(), o));
    gatewayFailures = failingRefunds;
    gatewayRefusals = 0;
  }

  /** The order, or an exception naming the id. */
  public synchronized Order get(String id) {
    Order o = orders.get(id);
    if (o == null) {
      throw new IllegalArgumentException("no order " + id + " was found");
    }
    return o;
  }

  /** A customer's orders, in the order they were placed. */
  public synchronized List<Order> of(String customer) {
    return orders.values().stream().filter(o -> o.customer().equals(customer)).toList();
  }

  /** Replaces an order. */
  public synchronized Order put(Order o) {
    orders.put(o.id(), o);
    return o;
  }

  /** Passes one refund through the gateway: throws while it is down. */
  public synchronized void charge(String orderId) {
    if (gatewayFailures > 0) {
      gatewayFailures--;
      throw new IllegalStateException(GATEWAY_DOWN.get(gatewayRefusals++ % GATEWAY_DOWN.size()) + " (order "
          + orderId + ")");
    }
  }
}
