package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportInfo;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * On the wire, against `npm start` behind a byte-counting relay: a GET travels gzip-compressed
 * and decodes to exactly the uncompressed body; a HEAD still gives the uncompressed size.
 * Prints the figures (`WIRE ...` lines in the test output).
 */
class CompressionTest {
  private static final List<String> FIXTURES =
      List.of("animated-80-displays", "reading-41-displays", "stone-gate-136-displays");
  private static LocalService service;

  @BeforeAll
  static void start() throws Exception {
    service = LocalService.start("compression", Map.of());
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  @Test
  void aFixtureTravelsGzipCompressedAndDecodesToTheSameBytes() throws Exception {
    for (String name : FIXTURES) {
      String id = service.publish(LocalService.fixture(name));
      String address = LocalService.freshClientAddress();
      byte[] identity = service.rawGet("/server-api?id=" + id + "&tag=bde", address).body();
      long gzipBody = gzipBodyBytes(id, address);
      try (CountingRelay relay = new CountingRelay(service.url)) {
        ExportClient client = ExportClient.builder(relay.url()).header("CF-Connecting-IP", address).build();
        byte[] fetched = client.fetch(id, "bde").join().bytes();
        long onTheWire = relay.bytesToClient.get();
        assertArrayEquals(identity, fetched, name + ": byte for byte the uncompressed body");
        // Headers are a few hundred bytes; the body is the compressed one.
        assertTrue(onTheWire >= gzipBody && onTheWire < gzipBody + 2048, onTheWire + " vs " + gzipBody);
        assertTrue(onTheWire * 4 < identity.length, name + ": " + onTheWire + " of " + identity.length);
        System.out.printf(
            "WIRE %s: identity body %d bytes, gzip body %d bytes, the client received %d bytes (headers included), %.1fx smaller%n",
            name, identity.length, gzipBody, onTheWire, (double) identity.length / onTheWire);
        ExportInfo head = client.head(id, "bde").join();
        assertEquals(identity.length, head.sizeBytes(), "HEAD asks for identity: Content-Length is the size");
      }
    }
  }

  /** The body's length as the service sends it to a caller that accepts gzip. */
  private static long gzipBodyBytes(String id, String address) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(service.url + "/server-api?id=" + id + "&tag=bde"))
            .header("CF-Connecting-IP", address)
            .header("Accept-Encoding", "gzip")
            .build();
    HttpResponse<byte[]> response =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(request, HttpResponse.BodyHandlers.ofByteArray());
    assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElse(null));
    return response.body().length;
  }
}
