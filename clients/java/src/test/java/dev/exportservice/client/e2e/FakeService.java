package dev.exportservice.client.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.zip.GZIPOutputStream;

/**
 * A local server in a test's hands, for what the real service never sends: each request gets
 * the answer of the handler given, and every request's headers are kept.
 */
final class FakeService implements AutoCloseable {
  /** What to answer; may throw to drop the connection. */
  interface Handler {
    void answer(HttpExchange exchange) throws IOException;
  }

  private final HttpServer server;
  final List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();

  FakeService(Handler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/",
        exchange -> {
          requests.add(Map.copyOf(exchange.getRequestHeaders()));
          try (exchange) {
            handler.answer(exchange);
          }
        });
    server.start();
  }

  /** A server that answers every request with {@code status}, {@code headers} and {@code body}. */
  static FakeService answering(int status, Map<String, String> headers, byte[] body) throws IOException {
    return new FakeService(
        exchange -> {
          headers.forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
          boolean none = body.length == 0 || exchange.getRequestMethod().equals("HEAD");
          exchange.sendResponseHeaders(status, none ? -1 : body.length);
          if (!none) exchange.getResponseBody().write(body);
        });
  }

  /** A JSON answer. */
  static FakeService json(int status, String body) throws IOException {
    return answering(status, Map.of("Content-Type", "application/json"), utf8(body));
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
