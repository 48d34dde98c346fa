package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.http.HttpHeaders;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResponseHeadersTest {
  private static HttpHeaders headers(Map<String, String> values) {
    Map<String, List<String>> map = new java.util.HashMap<>();
    values.forEach((name, value) -> map.put(name, List.of(value)));
    return HttpHeaders.of(map, (name, value) -> true);
  }

  @Test
  void theServedTagIsATagOrNotSaid() {
    assertEquals("gate1", ResponseHeaders.tag(headers(Map.of("X-Export-Tag", "gate1"))));
    assertEquals("x".repeat(100), ResponseHeaders.tag(headers(Map.of("X-Export-Tag", "x".repeat(100)))));
    assertNull(ResponseHeaders.tag(headers(Map.of())));
    for (String unreadable : List.of("", "a b", "x".repeat(101), "gate;1", "modèle")) {
      assertNull(ResponseHeaders.tag(headers(Map.of("X-Export-Tag", unreadable))), unreadable);
    }
  }

  @Test
  void retryAfterIsSecondsOrAnHttpDate() {
    Instant now = Instant.parse("2026-11-24T12:00:00Z");
    assertEquals(7, ResponseHeaders.retryAfterSeconds(headers(Map.of("Retry-After", " 7 ")), now));
    assertEquals(
        3,
        ResponseHeaders.retryAfterSeconds(
            headers(Map.of("Retry-After", "Tue, 24 Nov 2026 12:00:02 GMT")), now.minusMillis(500)));
    assertEquals(
        0,
        ResponseHeaders.retryAfterSeconds(headers(Map.of("Retry-After", "Tue, 24 Nov 2026 11:00:00 GMT")), now));
    for (String unreadable : List.of("", "-1", "1.5", "soon", "99999999999999999999")) {
      assertEquals(-1, ResponseHeaders.retryAfterSeconds(headers(Map.of("Retry-After", unreadable)), now), unreadable);
    }
    assertEquals(-1, ResponseHeaders.retryAfterSeconds(headers(Map.of()), now));
  }

  @Test
  void rateLimitNeedsTheWholeTrioAndJoinsWindowsWithTheirPolicy() {
    Map<String, String> trio =
        Map.of("X-RateLimit-Limit", "120", "X-RateLimit-Remaining", "117", "X-RateLimit-Reset", "50");
    assertEquals(new RateLimit(120, 117, 50, List.of()), ResponseHeaders.rateLimit(headers(trio)));
    assertNull(ResponseHeaders.rateLimit(headers(Map.of("X-RateLimit-Limit", "120", "X-RateLimit-Reset", "5"))));
    assertNull(ResponseHeaders.rateLimit(headers(Map.of("X-RateLimit-Limit", "120", "X-RateLimit-Remaining", "x", "X-RateLimit-Reset", "5"))));

    Map<String, String> all = new java.util.HashMap<>(trio);
    all.put("RateLimit", "\"short\";r=117;t=50, \"long\";r=1197;t=3590, \"odd\";r=1, bare;r=2;t=3");
    all.put("RateLimit-Policy", "\"short\";q=120;w=60, \"long\";q=1200;w=3600");
    assertEquals(
        List.of(
            new RateLimit.Window("short", 117, 50, 120, 60),
            new RateLimit.Window("long", 1197, 3590, 1200, 3600),
            new RateLimit.Window("bare", 2, 3, -1, -1)),
        ResponseHeaders.rateLimit(headers(all)).windows());
  }
}
