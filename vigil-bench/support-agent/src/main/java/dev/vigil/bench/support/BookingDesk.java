package dev.vigil.bench.support;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.time.LocalDate;
import java.util.Map;
import org.springframework.stereotype.Component;

/** The assistant's tool: the bookings of the rental, in memory. */
@Component
public class BookingDesk {
  private final Map<String, Booking> bookings =
      Map.of(
          "WD-1042",
              new Booking(
                  "WD-1042",
                  "Okafor",
                  LocalDate.of(2026, 12, 18),
                  LocalDate.of(2026, 12, 27),
                  "compact, automatic"),
          "WD-2291",
              new Booking(
                  "WD-2291",
                  "Lindqvist",
                  LocalDate.of(2027, 1, 4),
                  LocalDate.of(2027, 1, 6),
                  "van, manual"));

  /** The booking with this number, when the surname matches it. */
  @Tool("Finds a booking by its number and the customer's surname")
  public Booking findBooking(
      @P("the booking number, like WD-1042") String number,
      @P("the customer's surname") String surname) {
    Booking b = bookings.get(number.trim().toUpperCase(java.util.Locale.ROOT));
    if (b == null || !b.surname().equalsIgnoreCase(surname.trim())) {
      throw new IllegalArgumentException("no booking " + number + " for " + surname);
    }
    return b;
  }
}
