package dev.exportservice.client;

/**
 * 503: the service cannot answer now. {@code not_ready}: the export was just published and has
 * not reached the location that answered; {@code unavailable}: storage failed for a moment. Both
 * come with {@link #retryAfterSeconds()}, which the client waits out within its
 * {@code maxRetryWait}.
 */
public class ServiceUnavailableException extends ExportException {
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
  public ServiceUnavailableException(
      String message, String code, RateLimit rateLimit, String body, long retryAfterSeconds) {
    super(message, 503, code, rateLimit, body, null);
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** {@return whole seconds to wait before trying again, or -1 when the response did not say} */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
  }
}
