package dev.exportservice.client;

/**
 * 429: this address has used up a request window. Thrown when the service asked for a longer
 * wait than the client's {@code maxRetryWait} had left (or the client never retries); the call
 * can be made again after {@link #retryAfterSeconds()}.
 */
public class RateLimitedException extends ExportException {
  private static final long serialVersionUID = 1L;

  /** Whole seconds the service asked to wait, or -1. */
  private final long retryAfterSeconds;

  /**
   * See {@link ExportException#ExportException(String, int, String, RateLimit, String, Throwable)}.
   *
   * @param message what went wrong
   * @param code the service's error code, or null
   * @param rateLimit the rate-limit state, or null when the response carried none
   * @param body the response body's text (empty or null when none)
   * @param retryAfterSeconds whole seconds the service asked to wait, or -1 when not said
   */
  public RateLimitedException(
      String message, String code, RateLimit rateLimit, String body, long retryAfterSeconds) {
    super(message, 429, code, rateLimit, body, null);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * Whole seconds to wait before trying again ({@code Retry-After}, else the body's
   * {@code error.retryAfterSeconds}), or -1 when the response said neither (never this service).
   *
   * @return whole seconds to wait before trying again ({@code Retry-After}, else the body's {@code
   * error.retryAfterSeconds}), or -1 when the response said neither (never this service)
   */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
