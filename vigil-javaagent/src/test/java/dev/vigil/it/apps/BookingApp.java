package dev.vigil.it.apps;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A hand-written agent whose tool returns a record with dates, optionals and collections inside.
 */
public final class BookingApp {
  /** How a booking stands. */
  public enum Status {
    CONFIRMED,
    CANCELLED
  }

  /** A guest of a booking. */
  public record Guest(String name, Optional<String> email) {}

  /** What the tool returns, as the customer-support example's {@code Booking} does. */
  public record Booking(
      UUID id,
      LocalDate from,
      LocalDate to,
      Status status,
      BigDecimal price,
      Duration checkIn,
      List<Guest> guests,
      Map<String, LocalDate> changes) {}

  /** The tool, named by vigil.methods.include. */
  public static final class Bookings {
    public Booking find(String number) {
      return new Booking(
          UUID.nameUUIDFromBytes(number.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
          LocalDate.of(2025, 3, 1),
          LocalDate.of(2025, 3, 4),
          Status.CONFIRMED,
          new BigDecimal("420.50"),
          Duration.ofHours(15),
          List.of(
              new Guest("Ada", Optional.of("ada@example.org")), new Guest("Bob", Optional.empty())),
          Map.of("moved", LocalDate.of(2025, 2, 20)));
    }
  }

  public static void main(String[] args) {
    System.out.println(new Bookings().find("B-1").status());
  }

  private BookingApp() {}
}
