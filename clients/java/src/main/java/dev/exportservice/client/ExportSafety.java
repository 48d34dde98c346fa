package dev.exportservice.client;

import dev.exportservice.client.internal.safety.Refusal;
import dev.exportservice.client.internal.safety.SafetyCheck;
import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.Objects;

/**
 * The display-model vocabulary (docs/export-safety.md): what an export may ask a server to run.
 * An export is a display model (display entities, the commands that move them, the sounds they
 * play); anything else a server would run is refused. The service checks every export when it is
 * published; this is the same check, rule for rule and path for path, for a client that talks to
 * a misconfigured or older service, or reads a saved copy.
 *
 * <p>{@link ExportClient} runs it on every fetched export unless built with
 * {@link ExportClient.Builder#allowUnsafeExports(boolean) allowUnsafeExports(true)}, and
 * {@link Model#parse(String)} always does.
 */
public final class ExportSafety {
  /** The tag placeholder of the published form, as the vocabulary file spells it. */
  static final String PLACEHOLDER = VocabularyFile.string("placeholder");

  private ExportSafety() {}

  /**
   * Checks an export document's text, as published (with placeholders) or as fetched (tags
   * substituted). A document that is not of the form {@code {"content": {...}}} holds nothing a
   * plugin runs and passes.
   *
   * @param json the document's text
   * @throws UnsafeExportException when the export is outside the vocabulary: its
   *     {@link UnsafeExportException#path()} is the path the service names
   * @throws ExportServiceException when the text is not JSON
   */
  public static void check(String json) {
    check(Documents.parse(Objects.requireNonNull(json, "json"), 0), PLACEHOLDER, 0, null);
  }

  /**
   * Checks an export document's text as fetched with {@code tag} (the tag the service put in
   * place of the placeholder: what it made of the tag asked for): every selector's {@code tag=}
   * must begin with it, so that the model's commands reach only this copy's parts.
   *
   * @param json the document's text
   * @param tag the tag the export was fetched with, as the service made it (never empty)
   * @throws UnsafeExportException when the export is outside the vocabulary: its
   *     {@link UnsafeExportException#path()} is the path the service names
   * @throws ExportServiceException when the text is not JSON
   * @throws IllegalArgumentException when {@code tag} is empty
   */
  public static void check(String json, String tag) {
    Objects.requireNonNull(tag, "tag");
    if (tag.isEmpty()) throw new IllegalArgumentException("The tag an export was fetched with is never empty.");
    check(Documents.parse(Objects.requireNonNull(json, "json"), 0), tag, 0, null);
  }

  /**
   * Checks a parsed document whose selectors' tags begin with {@code modelTag}; {@code status}
   * and {@code rateLimit} go into the exception.
   */
  static void check(Object document, String modelTag, int status, RateLimit rateLimit) {
    Refusal refusal = SafetyCheck.find(document, modelTag);
    if (refusal == null) return;
    throw new UnsafeExportException(
        refusal.message(), refusal.path(), refusal.reason(), refusal.found(), status, rateLimit);
  }
}
