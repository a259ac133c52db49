package net.weather.client;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Asks a forecast service for the weather; one call per question. */
public final class ForecastClient {
  private final HttpClient http;
  private final URI base;

  public ForecastClient(HttpClient http, URI base) {
    this.http = http;
    this.base = base;
  }

  /** Today's forecast for a city. */
  public String forecast(String city) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/forecast?city=" + city)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("forecast for " + city + " failed with HTTP " + response.statusCode());
    }
    return response.body();
  }

  /** The service's health status code. */
  public int ping() throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/ping")).build();
    return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Reports an observation; failures are logged and swallowed. */
  public void report(String city, String observation) {
    try {
      HttpRequest request = HttpRequest.newBuilder(base.resolve("/observations?city=" + city))
          .POST(HttpRequest.BodyPublishers.ofString(observation)).build();
      http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException | InterruptedException e) {
      System.err.println("observation lost: " + e.getMessage());
    }
  }
}
