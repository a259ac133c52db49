package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HotspotScannerTest {
  @TempDir Path dir;

  @Test
  void findsEachCategoryOnItsLineAndIgnoresCommentsStringsImportsAndTests() throws Exception {
    TestRepos.write(
        dir,
        "src/main/java/p/Everything.java",
        """
        package p;

        import java.time.LocalDateTime;
        import java.util.Date;
        import java.net.http.HttpClient;

        class Everything {
          // LocalDateTime.parse(x) in a comment, RestTemplate too
          String s = "new Date() and executeQuery( in a string";
          Date created = new Date();
          LocalDateTime naive = LocalDateTime.parse("2025-10-31T10:00").plusHours(1);
          java.time.Instant utc = java.time.LocalTime.now().atDate(java.time.LocalDate.now())
              .toInstant(java.time.ZoneOffset.UTC);
          java.time.ZoneId server = java.time.ZoneId.systemDefault();
          HttpClient http = HttpClient.newHttpClient();

          @Scheduled(fixedRate = 1000)
          void tick() {
            new java.util.Timer().schedule(null, 10L);
          }

          void call(java.net.http.HttpRequest r) throws Exception {
            http.send(r, java.net.http.HttpResponse.BodyHandlers.ofString());
            try (var st = java.sql.DriverManager.getConnection("jdbc:x").createStatement()) {
              st.executeUpdate("delete from t");
            } catch (java.sql.SQLException e) {
              onAck(e);
            }
          }

          void onAck(Exception e) {}
        }
        """,
        "src/test/java/p/EverythingTest.java",
        """
        package p;

        class EverythingTest {
          java.time.LocalDateTime t = java.time.LocalDateTime.now();
        }
        """,
        "target/generated/p/Gen.java",
        "class Gen { java.time.LocalDateTime t; }",
        ".hidden/p/Hidden.java",
        "class Hidden { java.time.LocalDateTime t; }");

    List<String> found =
        HotspotScanner.scan(dir).stream()
            .map(h -> h.line() + " " + h.category() + " " + h.text())
            .toList();

    String f = "src/main/java/p/Everything.java";
    assertEquals(
        List.of(
            "10 NAIVE_TIME Date created = new Date();",
            "11 NAIVE_TIME LocalDateTime naive = LocalDateTime.parse(\"2025-10-31T10:00\").plusHours(1);",
            "12 NAIVE_TIME java.time.Instant utc = java.time.LocalTime.now().atDate(java.time.LocalDate.now())",
            "13 NAIVE_TIME .toInstant(java.time.ZoneOffset.UTC);",
            "14 NAIVE_TIME java.time.ZoneId server = java.time.ZoneId.systemDefault();",
            "17 SCHEDULING @Scheduled(fixedRate = 1000)",
            "19 SCHEDULING new java.util.Timer().schedule(null, 10L);",
            "23 REMOTE_CALL http.send(r, java.net.http.HttpResponse.BodyHandlers.ofString());",
            "25 REMOTE_CALL st.executeUpdate(\"delete from t\");",
            "26 CATCH_BLOCK } catch (java.sql.SQLException e) {",
            "27 RECEIPT onAck(e);",
            "31 RECEIPT void onAck(Exception e) {}"),
        found);
    HotspotScanner.scan(dir).forEach(h -> assertEquals(f, h.file()));
  }

  @Test
  void aRepositoryFutureWhoseResultIsDroppedIsAReceiptHotspot() throws Exception {
    TestRepos.write(
        dir,
        "src/q/Queue.java",
        """
        package q;

        import java.util.concurrent.CompletableFuture;

        interface Queue {
          CompletableFuture<Void> publishAndAwaitAck(String message);
        }
        """,
        "src/q/Publisher.java",
        """
        package q;

        class Publisher {
          private final Queue queue;

          Publisher(Queue queue) {
            this.queue = queue;
          }

          String publish(String message) {
            queue.publishAndAwaitAck(message);
            var kept = queue.publishAndAwaitAck(message);
            return "published " + kept.isDone();
          }
        }
        """);
    List<Hotspot> found =
        HotspotScanner.scan(dir).stream()
            .filter(h -> h.file().equals("src/q/Publisher.java"))
            .toList();
    assertEquals(
        List.of(
            new Hotspot(
                "src/q/Publisher.java", 11, Category.RECEIPT, "queue.publishAndAwaitAck(message);"),
            new Hotspot(
                "src/q/Publisher.java",
                12,
                Category.RECEIPT,
                "var kept = queue.publishAndAwaitAck(message);")),
        found);
    assertEquals("src/q/Publisher.java:11", found.get(0).location());
  }
}
