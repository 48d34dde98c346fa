package dev.exportservice.client;

/** 404: no export was ever published under this ID (an ID that expired is {@link ExportExpiredException}). */
public class ExportNotFoundException extends ExportException {
  private static final long serialVersionUID = 1L;

  /** See {@link ExportException#ExportException(String, int, String, RateLimit, String, Throwable)}. */
  public ExportNotFoundException(String message, int status, String code, RateLimit rateLimit, String body) {
    super(message, status, code, rateLimit, body, null);
  }
}
