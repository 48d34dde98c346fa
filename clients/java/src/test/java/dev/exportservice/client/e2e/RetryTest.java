package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.ExportClient;
import dev.exportservice.client.RateLimitedException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * 429 from `npm start` with small windows: {@value #SHORT_LIMIT} requests per
 * {@value #SHORT_SECONDS} s and {@value #LONG_LIMIT} per 600 s per address. A short-window 429
 * asks for a wait of a few seconds, a long-window one for about ten minutes.
 */
class RetryTest {
  static final int SHORT_LIMIT = 3;
  static final int SHORT_SECONDS = 3;
  static final int LONG_LIMIT = 4;

  private static LocalService service;
  private static String id;
  private static final String DOCUMENT = "{\"content\":{\"project_id\":\"limited\"}}";

  @BeforeAll
  static void start() throws Exception {
    service =
        LocalService.start(
            "retry",
            Map.of(
                "RATE_LIMIT_SHORT", SHORT_LIMIT + "/" + SHORT_SECONDS,
                "RATE_LIMIT_LONG", LONG_LIMIT + "/600"));
    id = service.publish(DOCUMENT.getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  /** Spends the short window of `address` with plain requests outside the client. */
  private static void spendShortWindow(String address) throws Exception {
    for (int i = 0; i < SHORT_LIMIT; i++) {
      assertEquals(200, service.rawGet("/server-api?id=" + id, address).statusCode());
    }
  }

  @Test
  void withoutABudgetA429FailsAtOnceWithTheWaitItAsksFor() throws Exception {
    String address = LocalService.freshClientAddress();
    spendShortWindow(address);
    ExportClient client =
        ExportClient.builder(service.url).header("CF-Connecting-IP", address).build();
    long start = System.nanoTime();
    RateLimitedException get = Failed.with(RateLimitedException.class, client.fetch(id, null));
    assertTrue((System.nanoTime() - start) / 1_000_000 < 1000, "no waiting without a budget");
    assertEquals(429, get.status());
    assertEquals("rate_limited", get.code());
    assertTrue(get.retryAfterSeconds() >= 1 && get.retryAfterSeconds() <= SHORT_SECONDS);
    assertEquals(
        "Too many requests from this address. Retry after " + get.retryAfterSeconds() + " seconds.",
        get.getMessage());
    assertEquals(SHORT_LIMIT, get.rateLimit().limit());
    assertEquals(0, get.rateLimit().remaining());

    RateLimitedException head = Failed.with(RateLimitedException.class, client.head(id, null));
    assertNull(head.code());
    assertTrue(head.retryAfterSeconds() >= 1 && head.retryAfterSeconds() <= SHORT_SECONDS);
    assertTrue(head.getMessage().contains("HTTP 429"), head.getMessage());
  }

  @Test
  void waitsExactlyRetryAfterWithinTheBudgetAndFailsAtOnceBeyondIt() throws Exception {
    String address = LocalService.freshClientAddress();
    spendShortWindow(address);
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      ExportClient client =
          ExportClient.builder(proxy.url())
              .maxRetryWait(Duration.ofSeconds(30))
              .header("CF-Connecting-IP", address)
              .build();

      // The short window is spent: a 429 asking for a few seconds, waited out, then the export.
      assertEquals(DOCUMENT, client.fetch(id, null).get().body());
      List<RecordingProxy.Exchange> first = proxy.exchanges();
      assertEquals(List.of(429, 200), first.stream().map(RecordingProxy.Exchange::status).toList());
      long retryAfterMillis = Long.parseLong(first.get(0).retryAfter()) * 1000;
      long gapMillis = (first.get(1).receivedNanos() - first.get(0).receivedNanos()) / 1_000_000;
      assertTrue(gapMillis >= retryAfterMillis, gapMillis + " ms after Retry-After " + retryAfterMillis);
      assertTrue(gapMillis < retryAfterMillis + 1000, gapMillis + " ms after Retry-After " + retryAfterMillis);

      // That was the long window's last request: its 429 asks for minutes, past the budget.
      long start = System.nanoTime();
      RateLimitedException error = Failed.with(RateLimitedException.class, client.fetch(id, null));
      assertTrue((System.nanoTime() - start) / 1_000_000 < 1000, "failed at once");
      assertTrue(error.retryAfterSeconds() > 30, "asked for " + error.retryAfterSeconds() + " s");
      assertEquals(LONG_LIMIT, error.rateLimit().limit(), "the long window is the one exhausted");
      assertEquals(3, proxy.exchanges().size(), "no request after the refused wait");
    }
  }
}
