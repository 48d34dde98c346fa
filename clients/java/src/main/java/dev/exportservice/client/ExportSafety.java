package dev.exportservice.client;

import dev.exportservice.client.internal.types.Refusal;
import dev.exportservice.client.internal.walk.SafetyCheck;
import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.Objects;

/**
 * The display-model vocabulary (docs/export-safety.md): what an export may ask a server to run.
 * An export is a display model (display entities, the commands that move them, the sounds they
 * play); anything else a server would run is refused. The service checks every export when it is
 * published; this is the same check, rule for rule and path for path, for a client that talks to
 * a misconfigured or older service, or reads a saved copy. Every value must be of the type the
 * game reads at its key, and the public plugins' own readers must read the export exactly as the
 * game does. Its words, types, limits and messages come from the service's vocabulary file, which
 * the jar carries.
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
   * Checks an export document's text, as published (with placeholders) or as fetched with any tag
   * (a real model as a plugin has it): the tag is read from the model's own parts. When a part's
   * tag begins with {@code [MODELSERVERTAG]} it is the published form, and every selector's
   * {@code tag=} must begin with the placeholder; otherwise every selector's {@code tag=} must be
   * one of the tags the model's own parts and hitboxes carry (never {@code tag=!x} or an empty
   * one). What it cannot know is which tag the copy was fetched with: when you know it, give it
   * ({@link #check(String, String)}), so that a selector reaches only that copy's parts. A
   * document that is not of the form {@code {"content": {...}}} holds nothing a plugin runs and
   * passes.
   *
   * @param json the document's text
   * @throws UnsafeExportException when the export is outside the vocabulary: its
   *     {@link UnsafeExportException#path()} is the path the service names
   * @throws ExportServiceException when the text is not JSON
   */
  public static void check(String json) {
    check(ExportDocuments.parse(asBytesRead(Objects.requireNonNull(json, "json")), DocumentOrigin.CALLER_TEXT), null, DocumentOrigin.CALLER_TEXT, null);
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
    check(ExportDocuments.parse(asBytesRead(Objects.requireNonNull(json, "json")), DocumentOrigin.CALLER_TEXT), tag, DocumentOrigin.CALLER_TEXT, null);
  }

  /**
   * {@code json} as its UTF-8 bytes read back: a lone surrogate (which no UTF-8 text holds) reads
   * as U+FFFD, as the service and the TypeScript check read a text, so that every text gets the
   * verdict its bytes would.
   */
  private static String asBytesRead(String json) {
    StringBuilder out = null;
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c) && i + 1 < json.length() && Character.isLowSurrogate(json.charAt(i + 1));
      if (pair) {
        if (out != null) out.append(c).append(json.charAt(i + 1));
        i++;
        continue;
      }
      if (Character.isSurrogate(c)) {
        if (out == null) out = new StringBuilder(json.length()).append(json, 0, i);
        out.append('\ufffd');
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? json : out.toString();
  }

  /**
   * Checks a parsed document whose selectors' tags begin with {@code modelTag} (null: read from
   * the parts' tags, as {@link #check(String)}); the status of {@code origin} and {@code rateLimit} go into
   * the exception.
   */
  static void check(Object document, String modelTag, DocumentOrigin origin, RateLimit rateLimit) {
    Refusal refusal = SafetyCheck.find(document, modelTag);
    if (refusal == null) return;
    throw new UnsafeExportException(
        refusal.message(), refusal.path(), refusal.reason(), refusal.found(), origin.status, rateLimit);
  }
}
