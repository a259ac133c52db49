package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.Tool;
import java.util.concurrent.TimeoutException;

/**
 * LangChain4j tools of the capture test: one succeeds, one is renamed, one fails, one times out.
 */
public class ReminderTools {
  @Tool("Sets a reminder")
  public String setReminder(String when, String task) {
    return "Reminder set: " + task + " " + when;
  }

  @Tool(name = "book_hotel", value = "Books a hotel")
  public String bookHotel(String city, int nights) {
    return "Booked " + nights + " nights in " + city;
  }

  @Tool("Deletes a reminder")
  public String deleteReminder(String id) {
    throw new IllegalStateException("no reminder " + id);
  }

  @Tool("Checks the calendar backend")
  public String checkCalendar() throws TimeoutException {
    try {
      Thread.sleep(60);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    throw new TimeoutException("calendar backend did not answer in 60 ms");
  }
}
