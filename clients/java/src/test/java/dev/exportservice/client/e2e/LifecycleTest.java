package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportExpiredException;
import dev.exportservice.client.ServiceUnavailableException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * An export's life as a caller sees it, with `npm start` acting as a far location that KV
 * reaches only {@value #LAG_SECONDS} s after a publish and keeping no grace copy: 503
 * {@code not_ready} at first (waited out within the budget, refused at once beyond it), then the
 * export, then 410 once its {@value #TTL_SECONDS} s lifetime is over.
 */
// The 503 test first: the export the 410 test waits for expires meanwhile.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LifecycleTest {
  static final int LAG_SECONDS = 3;
  static final int TTL_SECONDS = 10;
  /**
   * What the service asks a caller to wait for a not-yet-visible ID
   * ({@code NOT_VISIBLE_RETRY_AFTER_SECONDS} in src/exports/grace-copy-read.ts).
   */
  static final int NOT_READY_RETRY_AFTER_SECONDS = 5;

  private static LocalService service;
  private static String expiring;
  private static long expiringPublishedAt;
  private static final byte[] DOCUMENT = LocalService.fixture("stone-gate-136-displays");

  @BeforeAll
  static void start() throws Exception {
    service =
        LocalService.start(
            "lifecycle",
            Map.of(
                "SIMULATED_KV_LAG_SECONDS", String.valueOf(LAG_SECONDS),
                "PUBLISH_GRACE_SECONDS", "0",
                "EXPORT_TTL_SECONDS", String.valueOf(TTL_SECONDS)));
    expiringPublishedAt = System.nanoTime();
    expiring = service.publish("{\"content\":{\"project_id\":\"short-lived\"}}".getBytes());
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  private static ExportClient client(Duration maxRetryWait) {
    return LocalService.clientOfItsOwn(service.url, maxRetryWait);
  }

  @Test
  @Order(1)
  void notReadyRightAfterPublishingIsWaitedOutWithinTheBudget() throws Exception {
    String id = service.publish(DOCUMENT);
    long start = System.nanoTime();

    ServiceUnavailableException get =
        Failed.with(ServiceUnavailableException.class, client(Duration.ZERO).fetch(id, "bde"));
    assertEquals(503, get.status());
    assertEquals("not_ready", get.code());
    assertEquals(NOT_READY_RETRY_AFTER_SECONDS, get.retryAfterSeconds());
    assertEquals(
        "The export " + id + " was just published and is not yet visible here. Retry shortly.",
        get.getMessage());

    ServiceUnavailableException head =
        Failed.with(ServiceUnavailableException.class, client(Duration.ZERO).head(id, "bde"));
    assertEquals(NOT_READY_RETRY_AFTER_SECONDS, head.retryAfterSeconds());
    assertNull(head.code());

    // A budget below the wait asked for: refused at once, no waiting.
    long beforeShortBudget = System.nanoTime();
    ServiceUnavailableException refused =
        Failed.with(
            ServiceUnavailableException.class,
            client(Duration.ofSeconds(NOT_READY_RETRY_AFTER_SECONDS - 1)).fetch(id, "bde"));
    assertEquals("not_ready", refused.code());
    assertTrue(millisSince(beforeShortBudget) < 1000, "failed at once");
    assertTrue(millisSince(start) < LAG_SECONDS * 1000, "all of it inside the lag");

    // A budget that covers the wait: one wait of Retry-After, then the export.
    long beforeRetry = System.nanoTime();
    Export export = client(Duration.ofSeconds(10)).fetch(id, "bde").get();
    long waited = millisSince(beforeRetry);
    assertArrayEquals(LocalService.substituted(DOCUMENT, "bde"), export.bytes());
    assertTrue(waited >= NOT_READY_RETRY_AFTER_SECONDS * 1000, "waited " + waited + " ms");
    assertTrue(waited < (NOT_READY_RETRY_AFTER_SECONDS + 2) * 1000, "waited " + waited + " ms");
  }

  @Test
  @Order(2)
  void anExpiredExportIs410AndSaysToPublishAgain() throws Exception {
    long expiredAt = expiringPublishedAt + Duration.ofSeconds(TTL_SECONDS + 1).toNanos();
    Thread.sleep(Math.max(0, (expiredAt - System.nanoTime()) / 1_000_000));
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      ExportClient client = LocalService.clientOfItsOwn(proxy.url(), Duration.ofSeconds(30));
      ExportExpiredException get = Failed.with(ExportExpiredException.class, client.fetch(expiring, null));
      assertEquals(410, get.status());
      assertEquals("expired", get.code());
      assertEquals(
          "The export published under ID "
              + expiring
              + " has expired. Publish the model again to get a new ID.",
          get.getMessage());

      ExportExpiredException head = Failed.with(ExportExpiredException.class, client.head(expiring, null));
      assertEquals(410, head.status());
      assertNull(head.code());
      assertTrue(head.getMessage().contains("Publish the model again"), head.getMessage());
      assertEquals(2, proxy.exchanges().size(), "a 410 is never retried");
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
