package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportNotFoundException;
import dev.exportservice.client.ExportServiceException;
import dev.exportservice.client.RateLimitedException;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/**
 * What a body may grow to and what no call may do, against local servers made in the test: a
 * gzip bomb in a 64 MB heap, bodies past `maxBodyBytes`, an encoding not asked for, a huge
 * `Retry-After`, a cancelled call whose request is still running, a timeout of forever, and a
 * message full of control and bidirectional characters.
 */
class BoundsTest {
  private static final String EXPORT = "{\"content\":{\"passengers\":[]}}";

  @Test
  void aGzipBombOfAGigabyteFailsWithinTheBoundInA64MegabyteHeap() throws Exception {
    byte[] bomb = gzipOfZeros(1024);
    assertTrue(bomb.length < 2 * 1024 * 1024, bomb.length + " bytes on the wire");
    Map<String, String> headers = Map.of("Content-Type", "application/json", "Content-Encoding", "gzip");
    try (FakeService server = FakeService.answering(200, headers, bomb)) {
      String bounded = probe(server, 8 * 1024 * 1024);
      assertEquals(
          "FAILED ExportServiceException The response to GET "
              + server.url()
              + "/server-api?id=123456&tag=bomb (HTTP 200) is larger than maxBodyBytes, 8388608 bytes once"
              + " decompressed: the client stopped reading it. | cause TooLarge",
          bounded);
      // A bound the heap cannot hold: the OutOfMemoryError still completes the call.
      String unbounded = probe(server, Integer.MAX_VALUE);
      assertTrue(unbounded.startsWith("FAILED ExportServiceException "), unbounded);
      assertTrue(unbounded.endsWith("| cause OutOfMemoryError"), unbounded);
    }
  }

  @Test
  void aBodyPastTheBoundFailsOnTheWireWithOrWithoutContentLength() throws Exception {
    // An export padded with spaces (JSON allows them after the value) to 2 MiB.
    byte[] big = new byte[2 * 1024 * 1024];
    java.util.Arrays.fill(big, (byte) ' ');
    System.arraycopy(FakeService.utf8(EXPORT), 0, big, 0, EXPORT.length());
    try (FakeService declared = FakeService.answering(200, Map.of("Content-Type", "application/json"), big);
        FakeService chunked =
            new FakeService(
                exchange -> {
                  exchange.sendResponseHeaders(200, 0); // chunked: no Content-Length
                  for (int i = 0; i < 32; i++) exchange.getResponseBody().write(new byte[64 * 1024]);
                })) {
      for (FakeService server : List.of(declared, chunked)) {
        ExportClient client = ExportClient.builder(server.url()).maxBodyBytes(1024 * 1024).build();
        ExportServiceException error = Failed.with(ExportServiceException.class, client.fetch("123456", null));
        assertEquals(200, error.status());
        assertTrue(error.getMessage().endsWith("is larger than maxBodyBytes, 1048576 bytes: the client stopped reading it."), error.getMessage());
      }
      // Exactly the bound is fine.
      ExportClient exact = ExportClient.builder(declared.url()).maxBodyBytes(big.length).build();
      assertEquals(big.length, exact.fetch("123456", null).get(30, TimeUnit.SECONDS).bytes().length);
    }
    assertThrows(IllegalArgumentException.class, () -> ExportClient.builder(java.net.URI.create("http://x")).maxBodyBytes(0));
    assertEquals(64 * 1024 * 1024, ExportClient.DEFAULT_MAX_BODY_BYTES);
  }

  @Test
  void decodesGzipBodiesErrorsIncludedAndRefusesAnEncodingItDidNotAskFor() throws Exception {
    byte[] notFound = FakeService.gzip(FakeService.utf8("{\"error\":\"No export is published under ID 123456.\",\"code\":\"not_found\"}"));
    Map<String, String> gzip = Map.of("Content-Type", "application/json", "Content-Encoding", "gzip");
    try (FakeService missing = FakeService.answering(404, gzip, notFound);
        FakeService brotli =
            FakeService.answering(200, Map.of("Content-Type", "application/json", "Content-Encoding", "br"), new byte[] {1, 2, 3})) {
      ExportNotFoundException error =
          Failed.with(ExportNotFoundException.class, ExportClient.builder(missing.url()).build().fetch("123456", null));
      assertEquals("No export is published under ID 123456.", error.getMessage());
      assertEquals("not_found", error.code());
      assertEquals(List.of("gzip"), missing.requests.get(0).get("Accept-encoding"));
      ExportClient.builder(missing.url()).build().head("123456", null).exceptionally(e -> null).get(30, TimeUnit.SECONDS);
      assertEquals(List.of("identity"), missing.requests.get(1).get("Accept-encoding"), "HEAD keeps its Content-Length");

      ExportServiceException br =
          Failed.with(ExportServiceException.class, ExportClient.builder(brotli.url()).build().fetch("123456", null));
      assertEquals(200, br.status());
      assertTrue(br.getMessage().contains("the encoding \"br\", which the client did not ask for"), br.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> ExportClient.builder(java.net.URI.create("http://x")).header("accept-encoding", "br"));
  }

  @Test
  void aHugeRetryAfterDoesNotOverflowTheBudget() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    try (FakeService server =
        new FakeService(
            exchange -> {
              boolean first = requests.incrementAndGet() == 1;
              exchange.getResponseHeaders().add("Retry-After", first ? "1" : "999999999999999999");
              exchange.sendResponseHeaders(first ? 503 : 429, -1);
            })) {
      ExportClient client = ExportClient.builder(server.url()).maxRetryWait(Duration.ofSeconds(5)).build();
      long start = System.nanoTime();
      RateLimitedException error = Failed.with(RateLimitedException.class, client.fetch("123456", null));
      assertEquals(999999999999999999L, error.retryAfterSeconds());
      assertEquals(2, requests.get(), "one wait of a second, then a wait past the budget is refused");
      assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(4));
    }
  }

  @Test
  void cancellingACallCancelsItsRequestInFlight() throws Exception {
    CountDownLatch headersSent = new CountDownLatch(1);
    AtomicLong writtenAfterCancel = new AtomicLong();
    CompletableFuture<IOException> dropped = new CompletableFuture<>();
    try (FakeService slow =
        new FakeService(
            exchange -> {
              exchange.getResponseHeaders().add("Content-Type", "application/json");
              exchange.sendResponseHeaders(200, 0);
              OutputStream body = exchange.getResponseBody();
              body.write(new byte[] {'{'});
              body.flush();
              headersSent.countDown();
              try {
                for (int i = 0; i < 300; i++) { // 30 s of a slow body, unless the client leaves
                  Thread.sleep(100);
                  body.write(new byte[8 * 1024]);
                  body.flush();
                  writtenAfterCancel.incrementAndGet();
                }
              } catch (IOException gone) {
                dropped.complete(gone);
              } catch (InterruptedException stop) {
                Thread.currentThread().interrupt();
              }
            })) {
      ExportClient client = ExportClient.builder(slow.url()).timeout(Duration.ofSeconds(60)).build();
      CompletableFuture<Export> call = client.fetch("123456", null);
      assertTrue(headersSent.await(10, TimeUnit.SECONDS));
      assertTrue(call.cancel(true));
      // The server sees the connection go within seconds, not after its 30 s body.
      IOException gone = dropped.get(10, TimeUnit.SECONDS);
      assertInstanceOf(IOException.class, gone);
    }
  }

  @Test
  void aTimeoutOfForeverIsNoTimeoutAndNeverThrowsAtFetch() throws Exception {
    try (FakeService server = FakeService.json(200, EXPORT)) {
      ExportClient client =
          ExportClient.builder(server.url())
              .timeout(ChronoUnit.FOREVER.getDuration())
              .maxRetryWait(ChronoUnit.FOREVER.getDuration())
              .build();
      CompletableFuture<Export> call = client.fetch("123456", null); // must not throw
      assertEquals(EXPORT, call.get(30, TimeUnit.SECONDS).body());
      ExportClient longest = ExportClient.builder(server.url()).timeout(Duration.ofSeconds(Long.MAX_VALUE)).build();
      assertEquals(EXPORT, longest.fetch("123456", null).get(30, TimeUnit.SECONDS).body());
    }
  }

  @Test
  void theServicesMessageReachesGetMessageAsPlainText() throws Exception {
    String hostile =
        "{\"error\":\"No export\\u001b[31m here\\r\\n[Server] Op granted\\u202e.txt\\u2066 \\u00a7kmagic\\u0000\",\"code\":\"not_found\"}";
    try (FakeService server = FakeService.json(404, hostile)) {
      ExportNotFoundException error =
          Failed.with(ExportNotFoundException.class, ExportClient.builder(server.url()).build().fetch("123456", null));
      assertEquals("No export [31m here [Server] Op granted.txt kmagic", error.getMessage());
      assertTrue(error.body().contains("\\u202e"), "the body itself is kept as sent, for logs");
    }
  }

  /** The answer of {@link GzipBombProbe} in a JVM of its own with a 64 MB heap. */
  private static String probe(FakeService server, int maxBodyBytes) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx64m");
    command.add("-cp");
    command.add(System.getProperty("client.jar") + File.pathSeparator + Path.of("target", "test-classes").toAbsolutePath());
    command.add(GzipBombProbe.class.getName());
    command.add(server.url().toString());
    command.add(String.valueOf(maxBodyBytes));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertTrue(process.waitFor(90, TimeUnit.SECONDS), output);
    String[] lines = output.split("\n");
    return lines[lines.length - 1];
  }

  /** A gzip stream of {@code mebibytes} MiB of zeros. */
  private static byte[] gzipOfZeros(int mebibytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] zeros = new byte[1024 * 1024];
    try (GZIPOutputStream gzip = new GZIPOutputStream(out, 64 * 1024)) {
      for (int i = 0; i < mebibytes; i++) gzip.write(zeros);
    }
    return out.toByteArray();
  }

  @Test
  void aBodyWithinTheBoundIsDecodedByteForByte() throws Exception {
    byte[] document = FakeService.utf8(EXPORT);
    Map<String, String> gzip = Map.of("Content-Type", "application/json", "Content-Encoding", "gzip");
    try (FakeService server = FakeService.answering(200, gzip, FakeService.gzip(document))) {
      assertArrayEquals(document, ExportClient.builder(server.url()).build().fetch("123456", null).get(30, TimeUnit.SECONDS).bytes());
    }
  }
}
