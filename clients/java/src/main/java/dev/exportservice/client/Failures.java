package dev.exportservice.client;

import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The one place where what came back (a response other than 200, or no response) becomes the
 * exception a caller sees. Spec 7: an error body may carry {@code error} as an object or a
 * string, and an infrastructure failure may send no body or something that is not JSON at all,
 * so nothing here assumes the body is the service's.
 */
final class Failures {
  /** An error body longer than this is cut: it is kept for diagnostics, not for parsing. */
  static final int MAX_ERROR_BODY_CHARS = 4096;

  private Failures() {}

  /** The exception for a response whose status is not 200. */
  static ExportException of(HttpResponse<byte[]> response) {
    int status = response.statusCode();
    HttpHeaders headers = response.headers();
    String text = new String(response.body(), StandardCharsets.UTF_8);
    ErrorBody said = ErrorBody.parse(text);
    RateLimit rateLimit = ResponseHeaders.rateLimit(headers);
    long retryAfter = ResponseHeaders.retryAfterSeconds(headers, Instant.now());
    if (retryAfter < 0) retryAfter = said.retryAfterSeconds();
    String body = truncate(text);
    String target = describeRequest(response.request());
    String wait = retryAfter < 0 ? "" : " Retry after " + retryAfter + " s.";
    switch (status) {
      case 400:
        return new InvalidRequestException(
            said.messageOr("The service refused " + target + " as malformed (HTTP 400)."),
            status,
            said.code(),
            rateLimit,
            body);
      case 404:
        return new ExportNotFoundException(
            said.messageOr("No export is published for " + target + " (HTTP 404)."),
            status,
            said.code(),
            rateLimit,
            body);
      case 410:
        return new ExportExpiredException(
            said.messageOr(
                "The export of "
                    + target
                    + " has expired (HTTP 410). Publish the model again to get a new ID."),
            status,
            said.code(),
            rateLimit,
            body);
      case 429:
        return new RateLimitedException(
            said.messageOr("Too many requests from this address (HTTP 429)." + wait),
            said.code(),
            rateLimit,
            body,
            retryAfter);
      case 503:
        return new ServiceUnavailableException(
            said.messageOr("The service is unavailable (HTTP 503)." + wait),
            said.code(),
            rateLimit,
            body,
            retryAfter);
      default:
        return new ExportServiceException(
            said.messageOr("HTTP " + status + " for " + target + ": " + describeBody(text)),
            status,
            said.code(),
            rateLimit,
            body,
            null);
    }
  }

  /** A 200 whose Content-Type says it is not JSON: something in between answered. */
  static void requireJson(HttpResponse<byte[]> response) {
    String type = response.headers().firstValue("Content-Type").orElse(null);
    if (type == null || type.toLowerCase(java.util.Locale.ROOT).contains("json")) return;
    String text = new String(response.body(), StandardCharsets.UTF_8);
    throw new ExportServiceException(
        "The 200 response to "
            + describeRequest(response.request())
            + " is not JSON (Content-Type: "
            + type
            + "): "
            + describeBody(text),
        200,
        null,
        ResponseHeaders.rateLimit(response.headers()),
        truncate(text),
        null);
  }

  /**
   * No (whole) response: the connection failed, the timeout passed, or the body was past the
   * bound or in an encoding the client did not ask for.
   */
  static ExportServiceException transport(HttpRequest request, Throwable cause) {
    String target = describeRequest(request);
    for (Throwable c = cause; c != null; c = c.getCause()) {
      if (c instanceof BoundedBody.TooLarge) {
        BoundedBody.TooLarge large = (BoundedBody.TooLarge) c;
        return new ExportServiceException(
            "The response to "
                + target
                + " (HTTP "
                + large.status
                + ") is larger than maxBodyBytes, "
                + large.maxBytes
                + " bytes"
                + (large.decoded ? " once decompressed" : "")
                + ": the client stopped reading it.",
            large.status,
            null,
            null,
            "",
            large);
      }
      if (c instanceof BoundedBody.UnknownEncoding) {
        BoundedBody.UnknownEncoding encoding = (BoundedBody.UnknownEncoding) c;
        return new ExportServiceException(
            "The response to " + target + ": " + encoding.getMessage() + ".",
            encoding.status,
            null,
            null,
            "",
            encoding);
      }
    }
    String message =
        cause instanceof HttpTimeoutException
            ? "No response to " + target + " within " + seconds(request) + "."
            : target + " failed: " + cause;
    return new ExportServiceException(message, 0, null, null, "", cause);
  }

  /** A failure of the client itself while handling a response; never expected. */
  static ExportServiceException unexpected(HttpRequest request, Throwable cause) {
    return new ExportServiceException(
        "Handling the response to " + describeRequest(request) + " failed: " + cause,
        0,
        null,
        null,
        "",
        cause);
  }

  private static String describeRequest(HttpRequest request) {
    return request.method() + " " + request.uri();
  }

  private static String seconds(HttpRequest request) {
    return request.timeout().map(t -> t.toMillis() / 1000.0 + " s").orElse("the timeout");
  }

  private static String describeBody(String text) {
    if (text.isBlank()) return "the body is empty.";
    String start = text.strip().replaceAll("\\s+", " ");
    if (start.length() > 200) start = start.substring(0, 200) + "…";
    return "the body is not a JSON error: " + start;
  }

  private static String truncate(String text) {
    return text.length() > MAX_ERROR_BODY_CHARS
        ? text.substring(0, MAX_ERROR_BODY_CHARS) + "…"
        : text;
  }
}
