package dev.exportservice.client;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * The client of a published export retrieval service: {@code GET} and {@code HEAD}
 * {@code /server-api?id=...&tag=...}, asynchronous, with typed errors and {@code Retry-After}
 * honoured.
 *
 * <p>Every call returns at once with a {@link CompletableFuture}; nothing blocks the calling
 * thread, waits between retries included. A failed call completes the future exceptionally with
 * an {@link ExportException} subclass: {@code whenComplete} and {@code exceptionally} on the
 * returned future receive it as it is, while {@code join()} wraps it in a
 * {@link CompletionException} (as the JDK does for every future).
 *
 * <p>A {@code GET} travels gzip-compressed and is decoded; no body may grow past
 * {@link Builder#maxBodyBytes(int)}. A fetched export is read into its {@link Model} and checked
 * against the display-model vocabulary ({@link ExportSafety}) before the call completes, unless
 * the client was built with {@link Builder#allowUnsafeExports(boolean) allowUnsafeExports(true)}.
 *
 * <p>When the service announces that the route, or a parameter the client sends, is deprecated
 * (docs/api.md, "Compatibility"), the client tells its {@link Builder#onDeprecation(Consumer)
 * listener} once, or logs one warning line; the call goes on as if nothing were announced.
 *
 * <p>An instance is thread-safe: build one per plugin and share it. It holds one
 * {@link HttpClient}, whose connections are reused between calls.
 */
public final class ExportClient {
  /** Per-request timeout when the builder sets none. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  /** Shortest wait between two tries, so that a {@code Retry-After: 0} cannot become a loop. */
  public static final Duration MIN_RETRY_WAIT = RetryPolicy.MIN_WAIT;
  /**
   * A timeout this long or longer ({@code ChronoUnit.FOREVER.getDuration()} included) means no
   * timeout at all: the JDK's timers cannot count that far.
   */
  public static final Duration NO_TIMEOUT = Duration.ofDays(365);
  /**
   * The largest body a response may have when the builder sets no other bound, on the wire and
   * once decoded: 64 MiB. Real exports are 0.3 to 0.5 MB; the largest the service stores is
   * 25 MiB, and a tag longer than the placeholder it replaces makes it grow (up to 156 MiB for
   * a 25 MiB export of placeholders with a 100-character tag): raise the bound with
   * {@link Builder#maxBodyBytes(int)} to serve those.
   */
  public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

  // Spec 8: exactly six ASCII digits; other scripts' digits do not count.
  private static final Pattern PUBLICATION_ID = Pattern.compile("[0-9]{6}");
  private static final String HEAD = "HEAD";
  /** The longest tag the service keeps. */
  private static final int MAX_TAG_CHARS = 100;
  private static final String GET = "GET";
  private static final System.Logger LOG = System.getLogger(ExportClient.class.getName());

  private final URI endpoint;
  private final HttpClient http;
  private final String userAgent;
  private final Duration timeout;
  private final RetryPolicy retry;
  private final List<String[]> extraHeaders;
  private final BoundedBody bodyHandler;
  private final boolean allowUnsafeExports;
  private final Consumer<Deprecation> onDeprecation;
  /** The announcements told already: each one once per client, however many answers carry it. */
  private final Set<String> announced = ConcurrentHashMap.newKeySet();

  private ExportClient(Builder builder) {
    this.endpoint = endpointOf(builder.baseUri);
    this.timeout = builder.timeout.compareTo(NO_TIMEOUT) >= 0 ? null : builder.timeout;
    this.retry = new RetryPolicy(builder.maxRetryWait);
    this.bodyHandler = new BoundedBody(builder.maxBodyBytes);
    this.allowUnsafeExports = builder.allowUnsafeExports;
    this.onDeprecation = builder.onDeprecation;
    this.userAgent =
        builder.userAgent == null
            ? LibraryVersion.PRODUCT
            : builder.userAgent + " " + LibraryVersion.PRODUCT;
    this.extraHeaders = List.copyOf(builder.extraHeaders);
    HttpClient.Builder http = HttpClient.newBuilder();
    if (timeout != null) http.connectTimeout(timeout);
    this.http = http.build();
    // Fails now, not on the first call, for a header the JDK refuses (e.g. Host, Connection).
    request(GET, "000000", null);
  }

  /**
   * A builder for a client of the service at {@code baseUri}, e.g.
   * {@code https://models.example.net}; a path prefix is kept ({@code https://host/models/}).
   *
   * @param baseUri the service's address, e.g. {@code https://models.example.net}
   * @return a builder for a client of the service at {@code baseUri}, e.g
   */
  public static Builder builder(URI baseUri) {
    return new Builder(baseUri);
  }

  /**
   * {@code GET}: the export published under {@code id}, with {@code tag} substituted for
   * {@code [MODELSERVERTAG]}.
   *
   * <p>With a {@code null} tag the client asks for a tag unique to this copy ({@link #uniqueTag()},
   * read it back from {@link Model#tag()}), never the service's shared default {@code model}: the
   * frames of an export reach every part that carries the tag they were fetched with, so two
   * copies fetched under one tag (two models, or one model spawned twice, by any plugin on the
   * server) animate, change and remove each other's parts. Name a tag only to reach a copy you
   * spawned before, or a copy another tool spawned under a tag you know.
   *
   * <p>A malformed ID fails with {@link InvalidRequestException} without a request.
   *
   * @param id the publication ID: six ASCII digits
   * @param tag the tag to substitute for the placeholder; null for a new tag unique to this copy
   * @return the export, with its model read and checked against the display-model vocabulary
   */
  public CompletableFuture<Export> fetch(String id, String tag) {
    String asked = tag != null ? tag : uniqueTag();
    String served = servedTag(asked);
    return call(GET, id, asked, response -> Export.of(response, allowUnsafeExports, served));
  }

  /**
   * A new tag that no other copy carries: {@code copy_} and 24 random hex digits (29 characters,
   * kept by the service as they are; the TypeScript client's form). What
   * {@link #fetch(String, String)} asks for when given no tag; for {@link Model#withTag(String)},
   * a second copy of a model without another request.
   *
   * @return a tag unique to one copy of a model
   */
  public static String uniqueTag() {
    return CopyTag.next();
  }

  /**
   * {@code HEAD}: whether the export exists, its size and remaining lifetime, without its body.
   * Costs one request of the rate limit, like a {@code GET}.
   *
   * @param id the publication ID: six ASCII digits
   * @param tag the tag to substitute for the placeholder (it changes the size); null for the
   *     service's default, {@code model}
   * @return {@code HEAD}: whether the export exists, its size and remaining lifetime, without its
   * body
   */
  public CompletableFuture<ExportInfo> head(String id, String tag) {
    return call(HEAD, id, tag, ExportInfo::of);
  }

  /**
   * Whether {@code id} is a publication ID: exactly six ASCII digits.
   *
   * @param id the publication ID: six ASCII digits
   * @return whether {@code id} is a publication ID: exactly six ASCII digits
   */
  public static boolean isPublicationId(String id) {
    return id != null && PUBLICATION_ID.matcher(id).matches();
  }

  /** {@return the address every call goes to: the base URI with {@code server-api} appended} */
  public URI endpoint() {
    return endpoint;
  }

  private <T> CompletableFuture<T> call(
      String method, String id, String tag, Function<HttpResponse<byte[]>, T> onSuccess) {
    CompletableFuture<T> result = new CompletableFuture<>();
    if (!isPublicationId(id)) {
      result.completeExceptionally(InvalidRequestException.malformedId(id));
      return result;
    }
    HttpRequest request;
    try {
      request = request(method, id, tag);
    } catch (RuntimeException e) {
      result.completeExceptionally(
          new ExportServiceException("The request cannot be made: " + e, 0, null, null, "", e));
      return result;
    }
    // Cancelling the call (or completing it) cancels the request in flight, whichever try it is.
    AtomicReference<CompletableFuture<?>> inFlight = new AtomicReference<>();
    result.whenComplete(
        (value, failure) -> {
          CompletableFuture<?> sending = inFlight.get();
          if (sending != null && result.isCancelled()) sending.cancel(true);
        });
    attempt(request, onSuccess, 0, result, inFlight);
    return result;
  }

  /** One try; on a retryable answer, schedules the next without holding any thread. */
  private <T> void attempt(
      HttpRequest request,
      Function<HttpResponse<byte[]>, T> onSuccess,
      long waitedMillis,
      CompletableFuture<T> result,
      AtomicReference<CompletableFuture<?>> inFlight) {
    // The caller cancelled (or gave up on) the future: no further request.
    if (result.isDone()) return;
    CompletableFuture<HttpResponse<byte[]>> sending;
    CompletableFuture<HttpResponse<byte[]>> exchange;
    try {
      sending = http.sendAsync(request, bodyHandler);
      inFlight.set(sending);
      // Cancelled between the check above and now: the whenComplete of call() has run already.
      if (result.isCancelled()) sending.cancel(true);
      // The request's own timeout ends at the response headers (JDK 17): a body that stops
      // half-way would hang the call for good, so the whole exchange has the same limit.
      exchange =
          timeout == null
              ? sending.copy()
              : sending.copy().orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (Throwable e) {
      // Never expected (the request was checked when the client was built), but a retry runs
      // on the delayed executor, where a throw would leave the future pending for ever.
      result.completeExceptionally(Failures.unexpected(request, e));
      return;
    }
    exchange.whenComplete(
            (response, failure) -> {
              try {
                if (failure != null) {
                  Throwable cause = unwrap(failure);
                  if (cause instanceof TimeoutException) {
                    sending.cancel(true);
                    cause = new HttpTimeoutException("the response did not complete in time");
                  }
                  result.completeExceptionally(Failures.transport(request, cause));
                  return;
                }
                announce(Deprecation.of(response.headers(), request.uri()));
                if (response.statusCode() == 200) {
                  result.complete(onSuccess.apply(response));
                } else {
                  ExportException error = Failures.of(response);
                  long waitMillis = retry.nextWaitMillis(error, waitedMillis);
                  if (waitMillis < 0) {
                    result.completeExceptionally(error);
                  } else {
                    RetryPolicy.after(
                        waitMillis,
                        () -> attempt(request, onSuccess, waitedMillis + waitMillis, result, inFlight));
                  }
                }
              } catch (ExportException e) {
                result.completeExceptionally(e);
              } catch (Throwable e) { // an Error too: no future may stay pending
                result.completeExceptionally(Failures.unexpected(request, e));
              }
            });
  }

  /** Tells the listener (or the log) of an announcement it has not heard from this client yet. */
  private void announce(Deprecation deprecation) {
    if (deprecation == null || !announced.add(deprecation.announcement())) return;
    if (onDeprecation == null) {
      LOG.log(System.Logger.Level.WARNING, deprecation.message());
      return;
    }
    try {
      onDeprecation.accept(deprecation);
    } catch (RuntimeException e) {
      // A listener's failure is not the call's.
      LOG.log(System.Logger.Level.WARNING, "The onDeprecation listener failed", e);
    }
  }

  private HttpRequest request(String method, String id, String tag) {
    StringBuilder query = new StringBuilder("id=").append(id);
    if (tag != null) query.append("&tag=").append(encodeQueryValue(tag));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(endpoint + "?" + query))
            .header("Accept", "application/json")
            // A GET's body travels compressed (about 6x smaller); a HEAD asks for none, so that
            // its Content-Length is still the export's size.
            .header("Accept-Encoding", method.equals(HEAD) ? "identity" : "gzip")
            .header("User-Agent", userAgent)
            .method(method, HttpRequest.BodyPublishers.noBody());
    // Plain http is local development: HTTP/1.1 spares it the h2c upgrade dance.
    if ("http".equalsIgnoreCase(endpoint.getScheme())) request.version(HttpClient.Version.HTTP_1_1);
    if (timeout != null) request.timeout(timeout);
    for (String[] header : extraHeaders) request.header(header[0], header[1]);
    return request.build();
  }

  /**
   * What the service makes of {@code tag} (its ASCII letters, digits, '_' and '-', at most 100):
   * what it puts in place of the placeholder. Null when nothing is left: the service's default,
   * which the client does not know.
   */
  private static String servedTag(String tag) {
    if (tag == null) return null;
    StringBuilder kept = new StringBuilder();
    for (int i = 0; i < tag.length() && kept.length() < MAX_TAG_CHARS; i++) {
      char c = tag.charAt(i);
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-') kept.append(c);
    }
    return kept.length() == 0 ? null : kept.toString();
  }

  /** RFC 3986 percent-encoding of a query value ({@code URLEncoder} writes a space as '+'). */
  private static String encodeQueryValue(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static URI endpointOf(URI base) {
    Objects.requireNonNull(base, "baseUri");
    String scheme = base.getScheme();
    if (scheme == null
        || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
        || base.getHost() == null) {
      throw new IllegalArgumentException("The base URI must be an http(s) address, got " + base);
    }
    if (base.getRawQuery() != null || base.getRawFragment() != null) {
      throw new IllegalArgumentException("The base URI must have no query or fragment: " + base);
    }
    String text = base.toString();
    return URI.create(text.endsWith("/") ? text + "server-api" : text + "/server-api");
  }

  private static Throwable unwrap(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** Settings of an {@link ExportClient}; every one has a default. */
  public static final class Builder {
    private final URI baseUri;
    private String userAgent;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Duration maxRetryWait = Duration.ZERO;
    private int maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
    private boolean allowUnsafeExports;
    private Consumer<Deprecation> onDeprecation;
    private final List<String[]> extraHeaders = new ArrayList<>();

    private Builder(URI baseUri) {
      this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
    }

    /**
     * Your plugin's product token, e.g. {@code MyPlugin/1.2}: sent as {@code User-Agent}, with
     * the library's own name and version after it.
     *
     * @param userAgent the plugin's product token
     * @return your plugin's product token, e.g
     */
    public Builder userAgent(String userAgent) {
      Objects.requireNonNull(userAgent, "userAgent");
      if (userAgent.isBlank() || userAgent.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
        throw new IllegalArgumentException("A User-Agent is one line of visible text");
      }
      this.userAgent = userAgent.strip();
      return this;
    }

    /**
     * How long one request may take, connecting and reading the whole body included; default
     * 10 s. A wait on {@code Retry-After} does not count against it. {@link #NO_TIMEOUT} or
     * longer ({@code ChronoUnit.FOREVER.getDuration()} included) means none: not recommended,
     * a server that never answers then holds the call for good.
     *
     * @param timeout a positive duration
     * @return this builder
     */
    public Builder timeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("The timeout must be positive, got " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * The total time the client may spend waiting on {@code Retry-After} (429 and 503) for one
     * call; default zero, which never retries. A wait that would go past it is not started: the
     * call fails at once with the error, which says how long the service asked to wait.
     *
     * @param maxRetryWait zero or a positive duration
     * @return this builder
     */
    public Builder maxRetryWait(Duration maxRetryWait) {
      if (maxRetryWait == null || maxRetryWait.isNegative()) {
        throw new IllegalArgumentException("maxRetryWait must be zero or more, got " + maxRetryWait);
      }
      this.maxRetryWait = maxRetryWait;
      return this;
    }

    /**
     * The largest response body the client accepts, in bytes, both as it travels (compressed)
     * and once decoded; default {@link #DEFAULT_MAX_BODY_BYTES} (64 MiB). A larger body, a gzip
     * bomb included, fails the call with an {@link ExportServiceException} once the bound is
     * passed, holding no more than the bound. The service's largest possible export (25 MiB of
     * placeholders fetched with a 100-character tag) is 156 MiB: {@code maxBodyBytes(160 << 20)}
     * lets it through, given a heap that holds it twice (the bytes and their text).
     *
     * @param maxBodyBytes a positive number of bytes
     * @return this builder
     */
    public Builder maxBodyBytes(int maxBodyBytes) {
      if (maxBodyBytes <= 0) {
        throw new IllegalArgumentException("maxBodyBytes must be positive, got " + maxBodyBytes);
      }
      this.maxBodyBytes = maxBodyBytes;
      return this;
    }

    /**
     * Whether to hand out exports outside the display-model vocabulary; default false. By
     * default every fetched export is read and checked ({@link ExportSafety}) before the call
     * completes: one that holds anything but a display model (an {@code op @a} in a frame, a
     * command block among the passengers, a second line in a command) fails the call with an
     * {@link UnsafeExportException}, and a body that is not an export with an
     * {@link ExportServiceException}.
     *
     * <p><b>Dangerous:</b> {@code true} turns the check off, and a plugin that runs what it
     * fetched then runs whatever the service (or anything between it and the server) sent, with
     * the console's permissions. Only for tools that inspect exports without running them.
     *
     * @param allowUnsafeExports true to skip the check
     * @return this builder
     */
    public Builder allowUnsafeExports(boolean allowUnsafeExports) {
      this.allowUnsafeExports = allowUnsafeExports;
      return this;
    }

    /**
     * Hears that the service announced the route, or a parameter the client sends, deprecated:
     * once per client for each announcement, however many answers carry it, on the thread that
     * completes the call. Without a listener the client logs the announcement's {@link
     * Deprecation#message()} once, as a warning of the {@code System.Logger} named after this
     * class (the server's console on Paper and Spigot). Never an exception: the call goes on.
     *
     * @param listener what to tell; it should return quickly
     * @return this builder
     */
    public Builder onDeprecation(Consumer<Deprecation> listener) {
      this.onDeprecation = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * A header sent with every request, e.g. what a proxy in front of the service requires.
     * Headers the JDK manages itself (Host, Connection, Content-Length ...) are refused, and so
     * is {@code Accept-Encoding}, which the client manages.
     *
     * @param name the header's name
     * @param value its value
     * @return this builder
     */
    public Builder header(String name, String value) {
      if ("accept-encoding".equalsIgnoreCase(name)) {
        throw new IllegalArgumentException("The client sets Accept-Encoding itself");
      }
      extraHeaders.add(
          new String[] {Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value")});
      return this;
    }

    /** {@return the client; throws {@link IllegalArgumentException} for an unusable base URI or header} */
    public ExportClient build() {
      return new ExportClient(this);
    }
  }
}
