package com.example.reminders;

import java.time.Instant;

/** The backend's confirmation that a reminder is scheduled. */
public record Receipt(String reminderId, Instant confirmedAt) {}
