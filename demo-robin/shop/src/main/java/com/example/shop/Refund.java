package com.example.shop;

/**
 * A refund the payment gateway accepted.
 *
 * @param orderId the order
 * @param amount  how much, in euros
 * @param status  always {@code refunded}
 */
public record Refund(String orderId, double amount, String status) {}
