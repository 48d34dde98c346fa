package dev.exportservice.client;

/**
 * Any other failure: a status the other exceptions do not cover (a 500, a 502 from a proxy), a
 * body that is not the service's (empty, HTML), a 200 that is not JSON, or no response at all
 * ({@link #status()} 0: the connection failed or the timeout passed, see {@link #getCause()},
 * e.g. a {@link java.net.http.HttpTimeoutException}).
 */
public class ExportServiceException extends ExportException {
  private static final long serialVersionUID = 1L;

  /**
   * See {@link ExportException#ExportException(String, int, String, RateLimit, String, Throwable)}.
   *
   * @param message what went wrong
   * @param status the HTTP status, or 0 when no response came
   * @param code the service's error code, or null
   * @param rateLimit the rate-limit state, or null when the response carried none
   * @param body the response body's text (empty or null when none)
   * @param cause the cause, or null
   */
  public ExportServiceException(
      String message, int status, String code, RateLimit rateLimit, String body, Throwable cause) {
    super(message, status, code, rateLimit, body, cause);
  }
}
