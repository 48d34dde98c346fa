package dev.exportservice.client.internal.model;

/** A document that is not an export, or not of an export's shape: the sentence says what was found where. */
public final class NotAnExport extends RuntimeException {
  private static final long serialVersionUID = 1L;

  NotAnExport(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
