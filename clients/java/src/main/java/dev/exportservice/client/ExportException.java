package dev.exportservice.client;

/**
 * Why a call failed. The subclass says what to do about it: {@link InvalidRequestException}
 * (400: fix the ID), {@link ExportNotFoundException} (404: no such export),
 * {@link ExportExpiredException} (410: publish again), {@link RateLimitedException} (429: wait),
 * {@link ServiceUnavailableException} (503: retry shortly), and {@link ExportServiceException}
 * for anything else (another status, a body that is not the service's, no answer at all).
 */
public class ExportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status, or 0. */
  private final int status;
  /** The service's error code, or null. */
  private final String code;
  /** The rate-limit state, or null; not serialized. */
  private final transient RateLimit rateLimit;
  /** The response body's text, cut to 4,096 characters. */
  private final String body;

  /**
   * An error with the response's status (0 when no response came), the body's error code (null
   * when absent), the rate-limit state (null when the response had none), the body's text
   * (empty when none) and the cause (null when there is none). The message is kept as plain
   * text: control, format and bidirectional characters and '§' are taken out, so that
   * {@link #getMessage()} is safe to show a player or log.
   *
   * @param message what went wrong
   * @param status the HTTP status, or 0
   * @param code the service's error code, or null
   * @param rateLimit the rate-limit state, or null
   * @param body the response body's text, or null
   * @param cause the cause, or null
   */
  public ExportException(
      String message, int status, String code, RateLimit rateLimit, String body, Throwable cause) {
    super(PlainText.of(message), cause);
    this.status = status;
    this.code = code;
    this.rateLimit = rateLimit;
    this.body = body == null ? "" : body;
  }

  /** {@return the HTTP status, or 0 when no response came (a transport failure, a timeout, a bad ID)} */
  public int status() {
    return status;
  }

  /**
   * The service's error code ({@code not_found}, {@code expired}, {@code rate_limited},
   * {@code not_ready} ...), or null when the body had none (a HEAD, or not the service's body).
   *
   * @return the service's error code ({@code not_found}, {@code expired}, {@code rate_limited},
   * {@code not_ready} ...), or null when the body had none (a HEAD, or not the service's body)
   */
  public String code() {
    return code;
  }

  /** {@return the rate-limit state of the response, or null when it carried no rate-limit headers} */
  public RateLimit rateLimit() {
    return rateLimit;
  }

  /**
   * The response body as text, cut to 4,096 characters, for diagnostics (what an infrastructure
   * failure sent); empty for a HEAD or when no response came.
   *
   * @return the response body as text, cut to 4,096 characters, for diagnostics (what an
   * infrastructure failure sent); empty for a HEAD or when no response came
   */
  public String body() {
    return body;
  }
}
