package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportServiceException;
import dev.exportservice.client.RateLimitedException;
import dev.exportservice.client.ServiceUnavailableException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What no healthy service sends, made by local servers in the test: a socket that never answers,
 * a body that stops half-way, a refused connection, and the infrastructure's answers (docs/api.md#errors:
 * an error body may be empty, not JSON, or carry `error` as a string).
 */
class TransportTest {
  private static final Duration TIMEOUT = Duration.ofMillis(800);
  private final List<AutoCloseable> servers = new ArrayList<>();

  @AfterEach
  void closeServers() throws Exception {
    for (AutoCloseable server : servers) server.close();
  }

  @Test
  void timesOutAgainstASocketThatNeverAnswers() throws Exception {
    ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    servers.add(silent);
    List<Socket> accepted = new ArrayList<>();
    Thread acceptor = new Thread(() -> acceptForever(silent, accepted));
    acceptor.setDaemon(true);
    acceptor.start();
    ExportClient client =
        ExportClient.builder(URI.create("http://127.0.0.1:" + silent.getLocalPort()))
            .timeout(TIMEOUT)
            .maxRetryWait(Duration.ofSeconds(30))
            .build();
    long start = System.nanoTime();
    ExportServiceException error =
        Failed.with(ExportServiceException.class, client.fetch("123456", null));
    long elapsed = (System.nanoTime() - start) / 1_000_000;
    assertEquals(0, error.status());
    assertNull(error.code());
    assertInstanceOf(HttpTimeoutException.class, error.getCause());
    assertTrue(error.getMessage().startsWith("No response to GET http://127.0.0.1:"), error.getMessage());
    assertTrue(elapsed >= TIMEOUT.toMillis() && elapsed < TIMEOUT.toMillis() + 2000, elapsed + " ms");
  }

  @Test
  void timesOutWhenTheBodyStopsHalfWay() throws Exception {
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    servers.add(server);
    Thread writer =
        new Thread(
            () -> {
              try (Socket socket = server.accept()) {
                OutputStream out = socket.getOutputStream();
                out.write(
                    ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
                            + "{\"content\":{")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(10_000);
              } catch (IOException | InterruptedException closed) {
                // The test is over.
              }
            });
    writer.setDaemon(true);
    writer.start();
    ExportClient client =
        ExportClient.builder(URI.create("http://127.0.0.1:" + server.getLocalPort()))
            .timeout(TIMEOUT)
            .build();
    long start = System.nanoTime();
    ExportServiceException error =
        Failed.with(ExportServiceException.class, client.fetch("123456", null));
    long elapsed = (System.nanoTime() - start) / 1_000_000;
    assertEquals(0, error.status());
    assertInstanceOf(HttpTimeoutException.class, error.getCause());
    assertTrue(elapsed >= TIMEOUT.toMillis() && elapsed < TIMEOUT.toMillis() + 2000, elapsed + " ms");
  }

  @Test
  void aRefusedConnectionFailsWithItsCause() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    ExportClient client = ExportClient.builder(URI.create("http://127.0.0.1:" + port)).build();
    ExportServiceException error =
        Failed.with(ExportServiceException.class, client.fetch("123456", null));
    assertEquals(0, error.status());
    assertInstanceOf(ConnectException.class, error.getCause());
  }

  @Test
  void infrastructureErrorsWithoutTheServicesBodyAreExportServiceExceptions() throws Exception {
    Answers answers = new Answers();
    answers.add(502, Map.of("Content-Type", "text/html"), "<html><body><h1>502 Bad Gateway</h1></body></html>");
    answers.add(500, Map.of(), "");
    answers.add(418, Map.of("Content-Type", "application/json"), "{\"error\":\"I am a teapot\"}");
    answers.add(200, Map.of("Content-Type", "text/html"), "<html>captive portal</html>");
    ExportClient client = ExportClient.builder(answers.url()).build();

    ExportServiceException html = Failed.with(ExportServiceException.class, client.fetch("123456", null));
    assertEquals(502, html.status());
    assertNull(html.code());
    assertNull(html.rateLimit());
    assertTrue(html.getMessage().contains("HTTP 502") && html.getMessage().contains("not a JSON error: <html>"), html.getMessage());
    assertTrue(html.body().contains("502 Bad Gateway"));

    ExportServiceException empty = Failed.with(ExportServiceException.class, client.fetch("123456", null));
    assertEquals(500, empty.status());
    assertTrue(empty.getMessage().endsWith("the body is empty."), empty.getMessage());

    ExportServiceException string = Failed.with(ExportServiceException.class, client.fetch("123456", null));
    assertEquals(418, string.status());
    assertEquals("I am a teapot", string.getMessage());
    assertNull(string.code());

    ExportServiceException notJson = Failed.with(ExportServiceException.class, client.fetch("123456", null));
    assertEquals(200, notJson.status());
    assertTrue(notJson.getMessage().contains("is not JSON (Content-Type: text/html)"), notJson.getMessage());
    assertEquals(4, answers.requests.get());
  }

  @Test
  void neverWaitsWithoutARetryAfter() throws Exception {
    Answers answers = new Answers();
    answers.add(503, Map.of(), "");
    answers.add(429, Map.of("Content-Type", "application/json"), "{\"error\":{\"code\":\"rate_limited\"}}");
    ExportClient client = ExportClient.builder(answers.url()).maxRetryWait(Duration.ofMinutes(5)).build();
    ServiceUnavailableException unavailable =
        Failed.with(ServiceUnavailableException.class, client.fetch("123456", null));
    assertEquals(-1, unavailable.retryAfterSeconds());
    RateLimitedException limited = Failed.with(RateLimitedException.class, client.fetch("123456", null));
    assertEquals(-1, limited.retryAfterSeconds());
    assertEquals("rate_limited", limited.code());
    assertTrue(limited.getMessage().startsWith("Too many requests"), limited.getMessage());
    assertEquals(2, answers.requests.get(), "one request per call");
  }

  @Test
  void waitsForARetryAfterGivenAsAnHttpDateOrInTheBody() throws Exception {
    Answers answers = new Answers();
    String inTwoSeconds =
        DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(2));
    answers.add(429, Map.of("Retry-After", inTwoSeconds), "");
    answers.add(503, Map.of(), "{\"error\":{\"code\":\"unavailable\",\"retryAfterSeconds\":1}}");
    answers.add(200, Map.of("Content-Type", "application/json"), "{\"content\":{}}");
    ExportClient client = ExportClient.builder(answers.url()).maxRetryWait(Duration.ofSeconds(5)).build();
    long start = System.nanoTime();
    assertEquals("{\"content\":{}}", client.fetch("123456", null).get().body());
    long elapsed = (System.nanoTime() - start) / 1_000_000;
    assertEquals(3, answers.requests.get());
    // Up to two seconds for the date (whole seconds, rounded up), then one.
    assertTrue(elapsed >= 2000 && elapsed < 4500, elapsed + " ms");
    assertTrue(answers.gapsMillis().get(1) >= 1000, answers.gapsMillis().toString());
  }

  @Test
  void aRetryAfterOfZeroStillWaitsASecond() throws Exception {
    Answers answers = new Answers();
    answers.add(503, Map.of("Retry-After", "0"), "");
    answers.add(503, Map.of("Retry-After", "0"), "");
    answers.add(503, Map.of("Retry-After", "0"), "");
    ExportClient client = ExportClient.builder(answers.url()).maxRetryWait(Duration.ofMillis(2500)).build();
    ServiceUnavailableException error =
        Failed.with(ServiceUnavailableException.class, client.fetch("123456", null));
    assertEquals(0, error.retryAfterSeconds());
    // Two waits of one second fit the budget, a third does not: three requests, no storm.
    assertEquals(3, answers.requests.get());
    for (long gap : answers.gapsMillis()) assertTrue(gap >= 1000, answers.gapsMillis().toString());
  }

  @Test
  void cancellingTheFutureStopsFurtherTries() throws Exception {
    Answers answers = new Answers();
    for (int i = 0; i < 5; i++) answers.add(503, Map.of("Retry-After", "1"), "");
    ExportClient client = ExportClient.builder(answers.url()).maxRetryWait(Duration.ofSeconds(10)).build();
    CompletableFuture<Export> call = client.fetch("123456", null);
    while (answers.requests.get() == 0) Thread.sleep(10);
    assertTrue(call.cancel(false));
    Thread.sleep(2500);
    assertEquals(1, answers.requests.get(), "no try after the cancel");
  }

  /** A local server that gives the queued answers in turn and counts the requests. */
  private final class Answers {
    private final HttpServer server;
    private final ConcurrentLinkedQueue<Object[]> queue = new ConcurrentLinkedQueue<>();
    private final List<Long> arrivals = new java.util.concurrent.CopyOnWriteArrayList<>();
    final AtomicInteger requests = new AtomicInteger();

    Answers() throws IOException {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.createContext(
          "/",
          exchange -> {
            arrivals.add(System.nanoTime());
            requests.incrementAndGet();
            Object[] answer = queue.poll();
            int status = answer == null ? 599 : (int) answer[0];
            @SuppressWarnings("unchecked")
            Map<String, String> headers = answer == null ? Map.of() : (Map<String, String>) answer[1];
            byte[] body = answer == null ? new byte[0] : ((String) answer[2]).getBytes(StandardCharsets.UTF_8);
            headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
          });
      server.start();
      servers.add(() -> server.stop(0));
    }

    void add(int status, Map<String, String> headers, String body) {
      queue.add(new Object[] {status, headers, body});
    }

    URI url() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Long> gapsMillis() {
      List<Long> gaps = new ArrayList<>();
      for (int i = 1; i < arrivals.size(); i++) gaps.add((arrivals.get(i) - arrivals.get(i - 1)) / 1_000_000);
      return gaps;
    }
  }

  private static void acceptForever(ServerSocket server, List<Socket> accepted) {
    try {
      while (true) accepted.add(server.accept());
    } catch (IOException closed) {
      // The test is over.
    }
  }
}
