package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportInfo;
import dev.exportservice.client.ExportNotFoundException;
import dev.exportservice.client.InvalidRequestException;
import dev.exportservice.client.RateLimit;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The client against `npm start` with the default limits (120 per 60 s per address): the three
 * real fixtures byte for byte, HEAD, the tag's encoding, 404 and 400 as the service answers them,
 * the User-Agent, 100 calls at once. Each test presents itself as a client address of its own.
 */
class FetchTest {
  private static final List<String> FIXTURES =
      List.of("animated-80-displays", "reading-41-displays", "stone-gate-136-displays");
  private static final String SMALL =
      "{\"content\":{\"project_id\":\"gate\",\"meta\":{\"Tags\":[\"[MODELSERVERTAG]_root\"],"
          + "\"cmd\":\"kill @e[tag=[MODELSERVERTAG]_0]\"}}}";

  private static LocalService service;
  private static final Map<String, String> published = new LinkedHashMap<>();
  private static String smallId;

  @BeforeAll
  static void start() throws Exception {
    service = LocalService.start("fetch", Map.of());
    for (String name : FIXTURES) published.put(name, service.publish(LocalService.fixture(name)));
    smallId = service.publish(SMALL.getBytes(StandardCharsets.UTF_8));
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  private static ExportClient client(URI base, String address) {
    return ExportClient.builder(base)
        .userAgent("MyPlugin/1.2")
        .header("CF-Connecting-IP", address)
        .build();
  }

  @Test
  void fetchesEachFixtureByteForByteWithTheTagSubstituted() throws Exception {
    String address = LocalService.freshClientAddress();
    ExportClient client = client(service.url, address);
    for (Map.Entry<String, String> fixture : published.entrySet()) {
      byte[] document = LocalService.fixture(fixture.getKey());
      for (String tag : List.of("bde", "my_model_1")) {
        Export export = client.fetch(fixture.getValue(), tag).get(30, TimeUnit.SECONDS);
        byte[] expected = LocalService.substituted(document, tag);
        assertArrayEquals(expected, export.bytes(), fixture.getKey() + " with tag " + tag);
        assertEquals(new String(expected, StandardCharsets.UTF_8), export.body());
        // The same bytes a plain GET gets, outside the client.
        HttpResponse<byte[]> raw =
            service.rawGet("/server-api?id=" + fixture.getValue() + "&tag=" + tag, address);
        assertArrayEquals(raw.body(), export.bytes());
        assertTrue(export.expiresInSeconds() > 500 && export.expiresInSeconds() <= 600);
      }
    }
    // The fixtures' README: with tag=bde a fixture is the original export again.
    Export bde = client.fetch(published.get("reading-41-displays"), "bde").join();
    assertTrue(bde.body().startsWith("{\"content\":{"));
    assertTrue(!bde.body().contains(LocalService.PLACEHOLDER) && bde.body().contains("bde_0"));
  }

  @Test
  void aNullTagAsksForATagOfTheCopysOwnNeverTheSharedDefault() throws Exception {
    String id = published.get("stone-gate-136-displays");
    byte[] document = LocalService.fixture("stone-gate-136-displays");
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      ExportClient client = client(proxy.url(), LocalService.freshClientAddress());
      // The same model twice, as a plugin spawns two copies: each copy's parts carry a tag of
      // their own, so one copy's frames never reach the other's parts.
      Export first = client.fetch(id, null).get(30, TimeUnit.SECONDS);
      Export second = client.fetch(id, null).get(30, TimeUnit.SECONDS);
      List<String> sent = new ArrayList<>();
      for (RecordingProxy.Exchange exchange : proxy.exchanges()) {
        assertTrue(exchange.query().matches("id=" + id + "&tag=copy_[0-9a-f]{24}"), exchange.query());
        sent.add(exchange.query().substring(exchange.query().indexOf("&tag=") + 5));
      }
      assertEquals(2, sent.size());
      assertTrue(!sent.get(0).equals(sent.get(1)), "a tag per copy: " + sent);
      assertArrayEquals(LocalService.substituted(document, sent.get(0)), first.bytes());
      assertArrayEquals(LocalService.substituted(document, sent.get(1)), second.bytes());
      assertEquals(sent.get(0), first.model().tag());
      assertEquals(sent.get(1), second.model().tag());
    }
    // A tag named by the caller is sent as it is; "model" is still the service's default.
    Export named = client(service.url, LocalService.freshClientAddress()).fetch(smallId, "model").join();
    assertEquals(SMALL.replace(LocalService.PLACEHOLDER, "model"), named.body());
    String unique = ExportClient.uniqueTag();
    assertTrue(unique.matches("copy_[0-9a-f]{24}") && !unique.equals(ExportClient.uniqueTag()), unique);
  }

  @Test
  void reportsTheRateLimitOfEachResponse() {
    ExportClient client = client(service.url, LocalService.freshClientAddress());
    RateLimit first = client.fetch(smallId, "a").join().rateLimit();
    RateLimit second = client.fetch(smallId, "a").join().rateLimit();
    assertEquals(120, first.limit());
    assertEquals(119, first.remaining());
    assertEquals(118, second.remaining());
    assertTrue(first.resetSeconds() > 0 && first.resetSeconds() <= 60);
    assertEquals(
        List.of(
            new RateLimit.Window("short", 119, first.windows().get(0).resetSeconds(), 120, 60),
            new RateLimit.Window("long", 1199, first.windows().get(1).resetSeconds(), 1200, 3600)),
        first.windows());
  }

  @Test
  void headGivesSizeAndExpiryWithoutTheBody() {
    ExportClient client = client(service.url, LocalService.freshClientAddress());
    String id = published.get("stone-gate-136-displays");
    byte[] document = LocalService.fixture("stone-gate-136-displays");
    ExportInfo bde = client.head(id, "bde").join();
    ExportInfo byDefault = client.head(id, null).join();
    assertEquals(LocalService.substituted(document, "bde").length, bde.sizeBytes());
    assertEquals(LocalService.substituted(document, "model").length, byDefault.sizeBytes());
    assertTrue(bde.expiresInSeconds() > 500 && bde.expiresInSeconds() <= 600);
    assertEquals(118, byDefault.rateLimit().remaining(), "HEAD counts against the quota");
  }

  @Test
  void saysTheTagTheServiceWroteIntoTheExport() {
    ExportClient client = client(service.url, LocalService.freshClientAddress());
    // Unchanged by sanitizing, changed by it (dropped characters, cut to 100), left empty by it.
    Map<String, String> asked =
        Map.of("my_model_1", "my_model_1", "gate 1!", "gate1", "t".repeat(150), "t".repeat(100), "!!", "model");
    for (Map.Entry<String, String> tag : asked.entrySet()) {
      Export export = client.fetch(smallId, tag.getKey()).join();
      assertEquals(tag.getValue(), export.servedTag(), "GET with tag " + tag.getKey());
      assertEquals(SMALL.replace(LocalService.PLACEHOLDER, tag.getValue()), export.body());
      assertEquals(tag.getValue(), client.head(smallId, tag.getKey()).join().servedTag(), "HEAD with tag " + tag.getKey());
    }
    assertEquals("model", client.head(smallId, null).join().servedTag(), "HEAD without a tag");
    Export unique = client.fetch(smallId, null).join();
    assertTrue(unique.servedTag().matches("copy_[0-9a-f]{24}"), "the client's own tag: " + unique.servedTag());
    assertEquals(SMALL.replace(LocalService.PLACEHOLDER, unique.servedTag()), unique.body());
  }

  @Test
  void sendsTheTagPercentEncodedAndTheServiceSanitizesIt() {
    ExportClient client = client(service.url, LocalService.freshClientAddress());
    // Unencoded, '&' would end the tag at "a b" and '+' would be a space; encoded, the service
    // receives the whole value and keeps its letters, digits, '_' and '-'.
    Export export = client.fetch(smallId, "a b&tag=x/é+ü-_%41").join();
    assertEquals(SMALL.replace(LocalService.PLACEHOLDER, "abtagx-_41"), export.body());
    String tooLong = "t".repeat(150);
    assertEquals(
        SMALL.replace(LocalService.PLACEHOLDER, "t".repeat(100)),
        client.fetch(smallId, tooLong).join().body());
  }

  @Test
  void anUnknownIdIs404AndIsNotRetried() throws Exception {
    String unknown = unpublishedId();
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      ExportClient client = LocalService.clientOfItsOwn(proxy.url(), Duration.ofSeconds(30));
      ExportNotFoundException get =
          Failed.with(ExportNotFoundException.class, client.fetch(unknown, "bde"));
      assertEquals(404, get.status());
      assertEquals("not_found", get.code());
      assertEquals("No export is published under ID " + unknown + ".", get.getMessage());
      assertEquals(120, get.rateLimit().limit());
      // The service's error body: the message as `error`, the code beside it.
      assertTrue(get.body().startsWith("{\"error\":\"No export is published"), get.body());
      assertTrue(get.body().contains("\"code\":\"not_found\""), get.body());

      ExportNotFoundException head =
          Failed.with(ExportNotFoundException.class, client.head(unknown, null));
      assertEquals(404, head.status());
      assertNull(head.code(), "a HEAD has no body to carry a code");
      assertTrue(head.getMessage().contains("HTTP 404"), head.getMessage());
      assertNotNull(head.rateLimit());
      assertEquals(2, proxy.exchanges().size(), "one request each, never retried");
    }
  }

  @Test
  void aMalformedIdReachingTheServiceIs400() throws Exception {
    // The client never sends a malformed ID; a proxy that breaks it on the way makes the
    // service answer what it answers to one.
    try (RecordingProxy proxy =
        new RecordingProxy(service.url, query -> query.replaceFirst("id=([0-9]{6})", "id=$1x"))) {
      ExportClient client = LocalService.clientOfItsOwn(proxy.url(), Duration.ofSeconds(30));
      InvalidRequestException error =
          Failed.with(InvalidRequestException.class, client.fetch(smallId, null));
      assertEquals(400, error.status());
      assertEquals("invalid_id", error.code());
      assertEquals(
          "The query parameter \"id\" must be exactly six ASCII digits (0-9).", error.getMessage());
      assertEquals(1, proxy.exchanges().size());
    }
  }

  @Test
  void aMalformedIdFailsWithoutARequest() throws Exception {
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      ExportClient client = ExportClient.builder(proxy.url()).maxRetryWait(Duration.ofSeconds(30)).build();
      List<String> malformed =
          new ArrayList<>(
              List.of("12345", "1234567", "12345a", " 123456", "123456 ", "١٢٣٤٥٦", "１２３４５６", "12-456", ""));
      malformed.add(null);
      for (String id : malformed) {
        for (CompletableFuture<?> call : List.of(client.fetch(id, "bde"), client.head(id, null))) {
          assertTrue(call.isDone(), "failed at once: " + id);
          InvalidRequestException error = Failed.with(InvalidRequestException.class, call);
          assertEquals(0, error.status(), "no response: " + id);
          assertNull(error.code());
          assertNull(error.rateLimit());
          assertTrue(error.getMessage().contains("six ASCII digits"), error.getMessage());
        }
      }
      // A well-formed ID through the same proxy is seen: the proxy would have seen the others.
      client.fetch(smallId, null).join();
      assertEquals(1, proxy.exchanges().size(), "only the well-formed ID reached the network");
    }
  }

  @Test
  void sendsTheCallersUserAgentThenTheLibrarysNameAndVersion() throws Exception {
    String library = "export-client/" + System.getProperty("client.version");
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      client(proxy.url(), LocalService.freshClientAddress()).fetch(smallId, null).join();
      ExportClient.builder(proxy.url()).build().fetch(smallId, null).join();
      assertEquals("MyPlugin/1.2 " + library, proxy.exchanges().get(0).userAgent());
      assertEquals(library, proxy.exchanges().get(1).userAgent());
    }
  }

  @Test
  void completesAHundredCallsMadeAtOnce() throws Exception {
    String id = published.get("reading-41-displays");
    byte[] document = LocalService.fixture("reading-41-displays");
    try (RecordingProxy proxy = new RecordingProxy(service.url)) {
      // 100 requests at once on a busy machine: each may wait its turn well past the default 10 s,
      // so the timeout here only guards against a hang. A client's own requests in flight never
      // refuse its hits, and a fresh address's first burst fits its network's burst room
      // (docs/rate-limits.md#bursts): all 100 are answered at once; the retry budget only
      // covers a machine too busy to answer within the timeout.
      ExportClient client =
          ExportClient.builder(proxy.url())
              .header("CF-Connecting-IP", LocalService.freshClientAddress())
              .timeout(Duration.ofSeconds(90))
              .maxRetryWait(Duration.ofSeconds(90))
              .build();
      List<CompletableFuture<Export>> calls = new ArrayList<>();
      for (int i = 0; i < 100; i++) calls.add(client.fetch(id, "tag_" + i % 10));
      CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(
            LocalService.substituted(document, "tag_" + i % 10), calls.get(i).join().bytes());
      }
      assertTrue(proxy.exchanges().size() >= 100, "at least one request per call");
    }
  }

  private static String unpublishedId() {
    for (int candidate = 123456; ; candidate++) {
      String id = String.valueOf(candidate);
      if (!published.containsValue(id) && !id.equals(smallId)) return id;
    }
  }
}
