package dev.exportservice.client;

/** 410: the export existed and has expired (exports live 10 minutes); publish the model again in the editor for a new ID. */
public class ExportExpiredException extends ExportException {
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
  public ExportExpiredException(String message, int status, String code, RateLimit rateLimit, String body) {
    super(message, status, code, rateLimit, body, null);
  }
}
