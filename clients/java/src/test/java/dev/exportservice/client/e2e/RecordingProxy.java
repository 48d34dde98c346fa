package dev.exportservice.client.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

/**
 * A local HTTP server in front of the real service that records every request it relays (what
 * was asked, when, and what the service answered), so that tests can see what the client sent:
 * how many requests, how far apart, with which headers. Optionally rewrites the query on the way,
 * the one way to make the service answer 400 to a client that never sends a malformed ID.
 */
final class RecordingProxy implements AutoCloseable {
  /** One relayed request. */
  record Exchange(
      String method, String query, String userAgent, long receivedNanos, int status, String retryAfter) {}

  private static final Set<String> NOT_RELAYED =
      Set.of("content-length", "transfer-encoding", "connection", "date", "keep-alive");

  private final HttpServer server;
  private final URI target;
  private final UnaryOperator<String> rewriteQuery;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final List<Exchange> exchanges = new CopyOnWriteArrayList<>();

  RecordingProxy(URI target, UnaryOperator<String> rewriteQuery) throws IOException {
    this.target = target;
    this.rewriteQuery = rewriteQuery;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext("/", this::relay);
    server.start();
  }

  RecordingProxy(URI target) throws IOException {
    this(target, UnaryOperator.identity());
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  List<Exchange> exchanges() {
    return List.copyOf(exchanges);
  }

  private void relay(HttpExchange exchange) throws IOException {
    long received = System.nanoTime();
    try (exchange;
        InputStream ignored = exchange.getRequestBody()) {
      String query = rewriteQuery.apply(exchange.getRequestURI().getRawQuery());
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI().getRawPath() + "?" + query))
              .method(exchange.getRequestMethod(), HttpRequest.BodyPublishers.noBody());
      for (String name : List.of("User-Agent", "Accept", "CF-Connecting-IP")) {
        String value = exchange.getRequestHeaders().getFirst(name);
        if (value != null) request.header(name, value);
      }
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException(e);
      }
      exchanges.add(
          new Exchange(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getRawQuery(),
              exchange.getRequestHeaders().getFirst("User-Agent"),
              received,
              response.statusCode(),
              response.headers().firstValue("Retry-After").orElse(null)));
      response.headers().map().forEach((name, values) -> {
        if (!NOT_RELAYED.contains(name.toLowerCase())) exchange.getResponseHeaders().put(name, values);
      });
      byte[] body = response.body();
      exchange.sendResponseHeaders(response.statusCode(), body.length == 0 ? -1 : body.length);
      exchange.getResponseBody().write(body);
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
