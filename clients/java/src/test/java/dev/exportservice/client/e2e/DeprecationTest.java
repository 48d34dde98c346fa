package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Deprecation;
import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportNotFoundException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client against `npm start` run as a deployment that has deprecated the use of the tag
 * ({@code DEPRECATIONS}, docs/api.md "Announcements"): every answer to a call with a tag carries
 * {@code Deprecation}, {@code Sunset} and {@code Link}; the client tells its listener once, or
 * logs one line, and the calls succeed or fail as they would without it.
 */
class DeprecationTest {
  private static final String DOCS = "https://models.example.com/docs/api#compatibility";
  private static final String DEPRECATIONS =
      "[{\"use\":\"/server-api?tag\",\"deprecated\":\"2027-01-04\",\"sunset\":\"2028-01-05\",\"link\":\""
          + DOCS
          + "\"}]";
  private static final String SMALL = "{\"content\":{\"meta\":{\"Tags\":[\"[MODELSERVERTAG]_root\"]}}}";

  private static LocalService service;
  private static String id;

  @BeforeAll
  static void start() throws Exception {
    service = LocalService.start("deprecation", Map.of("DEPRECATIONS", DEPRECATIONS));
    id = service.publish(SMALL.getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  private static ExportClient.Builder builder() {
    return ExportClient.builder(service.url).header("CF-Connecting-IP", LocalService.freshClientAddress());
  }

  @Test
  void tellsItsListenerOnceAndServesEveryCall() throws Exception {
    List<Deprecation> heard = new CopyOnWriteArrayList<>();
    ExportClient client = builder().onDeprecation(heard::add).build();
    for (String tag : List.of("a", "b", "c")) {
      Export export = client.fetch(id, tag).get(30, TimeUnit.SECONDS);
      assertEquals(SMALL.replace("[MODELSERVERTAG]", tag), export.body());
    }
    client.head(id, "d").get(30, TimeUnit.SECONDS);
    assertEquals(1, heard.size(), "once per client: " + heard);
    Deprecation deprecation = heard.get(0);
    assertEquals(Instant.parse("2027-01-04T00:00:00Z"), deprecation.deprecatedAt());
    assertEquals(Instant.parse("2028-01-05T00:00:00Z"), deprecation.sunsetAt());
    assertEquals(DOCS, deprecation.link());
    assertEquals("/server-api", deprecation.uri().getPath());
    assertEquals(
        "export-retrieval-service: /server-api as called is deprecated since 2027-01-04T00:00:00Z"
            + " and may stop answering after 2028-01-05T00:00:00Z; see "
            + DOCS,
        deprecation.message());
  }

  @Test
  void hearsNothingFromCallsThatUseNothingDeprecated() throws Exception {
    List<Deprecation> heard = new CopyOnWriteArrayList<>();
    ExportClient client = builder().onDeprecation(heard::add).build();
    // A HEAD without a tag sends none (a GET without one asks for a tag of the copy's own).
    client.head(id, null).get(30, TimeUnit.SECONDS);
    assertEquals(List.of(), heard);
  }

  @Test
  void hearsItOnAnErrorTooAndStillFailsAsTheStatusSays() {
    List<Deprecation> heard = new CopyOnWriteArrayList<>();
    ExportClient client = builder().onDeprecation(heard::add).build();
    Failed.with(ExportNotFoundException.class, client.fetch("999999", "x"));
    assertEquals(1, heard.size());
  }

  @Test
  void aListenerThatThrowsDoesNotFailTheCall() throws Exception {
    ExportClient client =
        builder()
            .onDeprecation(
                deprecation -> {
                  throw new IllegalStateException("listener broke");
                })
            .build();
    assertEquals(SMALL.replace("[MODELSERVERTAG]", "x"), client.fetch(id, "x").get(30, TimeUnit.SECONDS).body());
  }

  @Test
  void withoutAListenerLogsOneWarningLinePerClient() throws Exception {
    Logger logger = Logger.getLogger(ExportClient.class.getName());
    List<LogRecord> records = new CopyOnWriteArrayList<>();
    Handler capture =
        new Handler() {
          @Override
          public void publish(LogRecord record) {
            records.add(record);
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    logger.addHandler(capture);
    try {
      for (int client = 0; client < 2; client++) {
        ExportClient plain = builder().build();
        for (String tag : List.of("a", "b")) plain.fetch(id, tag).get(30, TimeUnit.SECONDS);
      }
    } finally {
      logger.removeHandler(capture);
    }
    assertEquals(2, records.size(), "one line per client");
    for (LogRecord record : records) {
      assertEquals(java.util.logging.Level.WARNING, record.getLevel());
      assertTrue(record.getMessage().contains("deprecated") && record.getMessage().contains(DOCS));
    }
  }
}
