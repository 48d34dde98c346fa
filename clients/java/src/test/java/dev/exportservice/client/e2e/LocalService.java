package dev.exportservice.client.e2e;

import dev.exportservice.client.ExportClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The real service, started the README way: {@code npm start} in the repository root on a free
 * loopback port, with a fresh {@code --persist-to} folder, a publish token and the given vars
 * ({@code --var NAME:VALUE}), as scripts/local-service.mjs starts it for the project's own
 * end-to-end tests. Ready once it answers HTTP.
 */
final class LocalService implements AutoCloseable {
  static final String PUBLISH_TOKEN = "java-client-publish-token";
  /** The placeholder the service replaces with the sanitized tag (docs/api.md#the-body). */
  static final String PLACEHOLDER = "[MODELSERVERTAG]";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
  private static final Pattern PUBLISHED_ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9]{6})\"");
  /** Client addresses (CF-Connecting-IP) from TEST-NET-2, one per test client. */
  private static final AtomicInteger NEXT_ADDRESS = new AtomicInteger();

  private final Process process;
  private final Path state;
  private final Path log;
  final URI url;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private LocalService(Process process, Path state, Path log, URI url) {
    this.process = process;
    this.state = state;
    this.log = log;
    this.url = url;
  }

  /** The repository root, where `npm start` runs. */
  static Path root() {
    return Path.of(System.getProperty("service.root", "../..")).toAbsolutePath().normalize();
  }

  /** A fixture of the repository's fixtures/ folder, as published (placeholders in place). */
  static byte[] fixture(String name) {
    try {
      return Files.readAllBytes(root().resolve("fixtures").resolve(name + ".json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A client address of its own, so that one test's requests do not spend another's quota. */
  static String freshClientAddress() {
    int n = NEXT_ADDRESS.incrementAndGet();
    return "198.51." + (100 + n / 250) + "." + (1 + n % 250);
  }

  /** A client calling `base` from a client address of its own, waiting up to `maxRetryWait`. */
  static ExportClient clientOfItsOwn(URI base, Duration maxRetryWait) {
    return ExportClient.builder(base)
        .maxRetryWait(maxRetryWait)
        .header("CF-Connecting-IP", freshClientAddress())
        .build();
  }

  /**
   * Starts `npm start` with `vars`; returns once the service answers. A port found free may be
   * taken by another process before wrangler binds it (test suites side by side): such a start is
   * tried again on another port.
   */
  static LocalService start(String name, Map<String, String> vars) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return startOnce(name, vars);
      } catch (IllegalStateException e) {
        if (attempt >= 3 || !String.valueOf(e.getMessage()).contains("Address already in use")) {
          throw e;
        }
      }
    }
  }

  private static LocalService startOnce(String name, Map<String, String> vars) throws Exception {
    int port = freePort();
    Path state = Files.createTempDirectory("export-service-java-");
    Path logs = Path.of("target", "service-logs");
    Files.createDirectories(logs);
    Path log = logs.resolve(name + ".log");
    List<String> command =
        new ArrayList<>(
            List.of(
                "npm", "start", "--", "--port", String.valueOf(port), "--persist-to",
                state.toString(), "--log-level", "warn", "--var", "PUBLISH_TOKEN:" + PUBLISH_TOKEN));
    vars.forEach((key, value) -> command.addAll(List.of("--var", key + ":" + value)));
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(root().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().put("CI", "true");
    Process process = builder.start();
    LocalService service =
        new LocalService(process, state, log, URI.create("http://127.0.0.1:" + port));
    try {
      service.awaitReady();
    } catch (Exception e) {
      service.close();
      throw new IllegalStateException(
          "npm start did not answer: " + e + "\n" + Files.readString(log), e);
    }
    return service;
  }

  private void awaitReady() throws Exception {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    HttpRequest options =
        HttpRequest.newBuilder(url.resolve("/server-api"))
            .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
            .timeout(Duration.ofSeconds(2))
            .build();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) throw new IllegalStateException("exited with " + process.exitValue());
      try {
        http.send(options, HttpResponse.BodyHandlers.discarding());
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("timed out");
  }

  /** Publishes a document through the editor API (docs/publishing.md); returns its ID. */
  String publish(byte[] document) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(url.resolve("/editor-api/exports"))
            .header("Authorization", "Bearer " + PUBLISH_TOKEN)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(document))
            .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 201) {
      throw new IllegalStateException(
          "publish answered " + response.statusCode() + ": " + response.body());
    }
    Matcher id = PUBLISHED_ID.matcher(response.body());
    if (!id.find()) throw new IllegalStateException("no id in " + response.body());
    return id.group(1);
  }

  /** A plain GET from `address`, outside the client under test: status and body. */
  HttpResponse<byte[]> rawGet(String pathAndQuery, String address) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + pathAndQuery))
            .header("CF-Connecting-IP", address)
            .build();
    return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The document as the service must serve it with `tag` (already sanitized) substituted. */
  static byte[] substituted(byte[] document, String tag) {
    return new String(document, StandardCharsets.UTF_8)
        .replace(PLACEHOLDER, tag)
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Stops the service and every process it started (wrangler, workerd), removes its state. */
  @Override
  public void close() throws IOException {
    List<ProcessHandle> tree = new ArrayList<>(process.descendants().toList());
    tree.add(process.toHandle());
    tree.forEach(ProcessHandle::destroy);
    for (ProcessHandle handle : tree) {
      try {
        handle.onExit().get(5, TimeUnit.SECONDS);
      } catch (Exception stillAlive) {
        handle.destroyForcibly();
      }
    }
    try (Stream<Path> files = Files.walk(state)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
  }

  Path log() {
    return log;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
