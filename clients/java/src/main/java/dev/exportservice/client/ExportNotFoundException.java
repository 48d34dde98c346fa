package dev.exportservice.client;

/** 404: no export was ever published under this ID (an ID that expired is {@link ExportExpiredException}). */
public class ExportNotFoundException extends ExportException {
  private static final long serialVersionUID = 1L;

  /**
   * See {@link ExportException#ExportException(String, int, String, RateLimit, String, Throwable)}.
   *
   * @param message what went wrong
   * @param status the HTTP status, or 0 when no response came
   * @param code the service's error code, or null
   * @param rateLimit the rate-limit state, or null when the response carried none
   * @param body the response body's text (empty or null when none)
   */
  public ExportNotFoundException(String message, int status, String code, RateLimit rateLimit, String body) {
    super(message, status, code, rateLimit, body, null);
  }
}
