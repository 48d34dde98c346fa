package dev.exportservice.client;

/**
 * Where an export document's text came from. An exception about the document reports it as its
 * {@link ExportException#status() status}: the status of the response that carried the text, or
 * 0 when no response did.
 */
enum DocumentOrigin {
  /** The body of the service's 200 answer to a fetch ({@link Export#model()}). */
  RESPONSE_BODY(200),
  /** Text a caller handed in, such as a saved copy ({@link Model#parse(String)}): no response. */
  CALLER_TEXT(0);

  /** The status an exception about a document of this origin carries. */
  final int status;

  DocumentOrigin(int status) {
    this.status = status;
  }
}
