package dev.vigil.bench.support;

import java.time.LocalDate;

/**
 * A rental booking as the tool returns it: a record with {@code java.time} fields, the shape Vigil
 * captures as a JSON tree with ISO dates.
 */
public record Booking(
    String number, String surname, LocalDate pickUp, LocalDate dropOff, String car) {}
