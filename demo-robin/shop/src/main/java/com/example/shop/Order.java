package com.example.shop;

import java.util.List;

/**
 * An order as the shop's tools return it.
 *
 * @param id       the order number, e.g. {@code A-1042}
 * @param customer the customer's id
 * @param status   {@code pending}, {@code shipped}, {@code delivered}, {@code cancelled} or {@code refunded}
 * @param items    what was ordered
 * @param total    what was paid, in euros
 * @param address  where it goes
 */
public record Order(String id, String customer, String status, List<String> items, double total, String address) {
  /** Copies the list. */
  public Order {
    items = List.copyOf(items);
  }

  /** This order with another status. */
  public Order withStatus(String newStatus) {
    return new Order(id, customer, newStatus, items, total, address);
  }

  /** This order with another address. */
  public Order withAddress(String newAddress) {
    return new Order(id, customer, status, items, total, newAddress);
  }

  /** This order with one item swapped for another. */
  public Order withItem(String item, String newItem) {
    return new Order(id, customer, status, items.stream().map(i -> i.equals(item) ? newItem : i).toList(), total,
        address);
  }
}
