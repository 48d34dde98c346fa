package dev.exportservice.client;

/** 410: the export existed and has expired (exports live 10 minutes); publish the model again in the editor for a new ID. */
public class ExportExpiredException extends ExportException {
  private static final long serialVersionUID = 1L;

  /** See {@link ExportException#ExportException(String, int, String, RateLimit, String, Throwable)}. */
  public ExportExpiredException(String message, int status, String code, RateLimit rateLimit, String body) {
    super(message, status, code, rateLimit, body, null);
  }
}
