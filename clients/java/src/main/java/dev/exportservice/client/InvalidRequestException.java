package dev.exportservice.client;

/**
 * 400: the service refused the request as malformed. The client checks the ID itself first, so
 * a malformed ID fails with this exception without any request: then {@link #status()} is 0.
 */
public class InvalidRequestException extends ExportException {
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
  public InvalidRequestException(
      String message, int status, String code, RateLimit rateLimit, String body) {
    super(message, status, code, rateLimit, body, null);
  }

  static InvalidRequestException malformedId(String id) {
    String shown = id == null ? "null" : '"' + id + '"';
    return new InvalidRequestException(
        "A publication ID is exactly six ASCII digits (0-9), got " + shown + ". No request was sent.",
        0,
        null,
        null,
        "");
  }
}
