package dev.vigil.it.apps.boot;

import dev.langchain4j.agent.tool.Tool;
import org.springframework.stereotype.Component;

/** The concierge's tools, found by the starter because they are a component. */
@Component
public class ConciergeTools {
  @Tool("Sets a reminder")
  public String setReminder(String when, String task) {
    return "Reminder set: " + task + " " + when;
  }

  @Tool(name = "book_hotel", value = "Books a hotel")
  public String bookHotel(String city, int nights) {
    return "Booked " + nights + " nights in " + city;
  }
}
