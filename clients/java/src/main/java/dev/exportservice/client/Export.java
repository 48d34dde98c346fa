package dev.exportservice.client;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * A published export as the service sent it: the JSON document {@code {"content": {...}}} with
 * the tag substituted, byte for byte, and the display {@link #model()} it describes.
 */
public final class Export {
  private final byte[] bytes;
  private final String body;
  private final long expiresInSeconds;
  private final RateLimit rateLimit;
  private final boolean checkSafety;
  /** The tag the service put in place of the placeholder, or null when the caller cannot know it. */
  private final String tag;
  /** The tag the service said it used ({@code X-Export-Tag}), or null when it did not say. */
  private final String servedTag;
  private volatile Model model;

  /**
   * An export; for tests of code that consumes one. {@code bytes} is copied. Its
   * {@link #model()} is checked against the display-model vocabulary.
   *
   * @param bytes the document's bytes
   * @param expiresInSeconds whole seconds the export has left, or -1 when not said
   * @param rateLimit the rate-limit state, or null when the response carried none
   */
  public Export(byte[] bytes, long expiresInSeconds, RateLimit rateLimit) {
    this(bytes, expiresInSeconds, rateLimit, null);
  }

  /**
   * An export the service said it served under {@code servedTag}; for tests of code that
   * consumes one. {@code bytes} is copied. Its {@link #model()} is checked against the
   * display-model vocabulary.
   *
   * @param bytes the document's bytes
   * @param expiresInSeconds whole seconds the export has left, or -1 when not said
   * @param rateLimit the rate-limit state, or null when the response carried none
   * @param servedTag the tag the service said it wrote into the export, or null when not said
   */
  public Export(byte[] bytes, long expiresInSeconds, RateLimit rateLimit, String servedTag) {
    this(bytes.clone(), expiresInSeconds, rateLimit, true, null, servedTag);
  }

  private Export(
      byte[] bytes,
      long expiresInSeconds,
      RateLimit rateLimit,
      boolean checkSafety,
      String tag,
      String servedTag) {
    this.tag = tag;
    this.servedTag = servedTag;
    this.bytes = bytes;
    this.body = new String(this.bytes, StandardCharsets.UTF_8);
    this.expiresInSeconds = expiresInSeconds;
    this.rateLimit = rateLimit;
    this.checkSafety = checkSafety;
  }

  /**
   * The export of a 200 response to a request for {@code tag} (what the service made of the tag
   * asked for; null when the service chose it). Unless {@code allowUnsafe}, its body is read into
   * the model and checked now, so that an unsafe export or a body that is not an export fails the
   * call.
   */
  static Export of(HttpResponse<byte[]> response, boolean allowUnsafe, String tag) {
    Failures.requireJson(response);
    Export export =
        new Export(
            response.body(),
            ResponseHeaders.wholeNumber(response.headers(), ResponseHeaders.EXPIRES_IN),
            ResponseHeaders.rateLimit(response.headers()),
            !allowUnsafe,
            tag,
            ResponseHeaders.tag(response.headers()));
    if (!allowUnsafe) export.model();
    return export;
  }

  /**
   * The display model of this export, parsed from the body on the first call and kept: its
   * parts, summon command, animations, sounds and hitbox. Checked against the display-model
   * vocabulary ({@link ExportSafety}) unless the client was built with
   * {@code allowUnsafeExports(true)}: with the tag the export was fetched with, or, when the
   * service chose it (no tag asked for) or for an export made with the public constructor, the
   * model's own tag ({@link Model#tag()}).
   *
   * @return the model
   * @throws UnsafeExportException for an export outside the vocabulary
   * @throws ExportServiceException (status 200) when the body is not an export
   */
  public Model model() {
    Model parsed = model;
    if (parsed == null) {
      Object document = ExportDocuments.parse(body, DocumentOrigin.RESPONSE_BODY);
      ExportDocuments.requireExport(document, DocumentOrigin.RESPONSE_BODY);
      if (checkSafety) {
        String modelTag = tag != null ? tag : ExportDocuments.tagOf(document);
        ExportSafety.check(document, modelTag, DocumentOrigin.RESPONSE_BODY, rateLimit);
      }
      parsed = ExportDocuments.model(document, DocumentOrigin.RESPONSE_BODY);
      model = parsed;
    }
    return parsed;
  }

  /** {@return the JSON document as text (UTF-8), exactly as served} */
  public String body() {
    return body;
  }

  /** {@return the same document as the bytes that were served; a fresh copy on every call} */
  public byte[] bytes() {
    return bytes.clone();
  }

  /**
   * Whole seconds the export has left ({@code X-Export-Expires-In}), or -1 when the response did
   * not say (a proxy stripped the header). Exports live 10 minutes: save what you keep.
   *
   * @return whole seconds the export has left ({@code X-Export-Expires-In}), or -1 when the
   * response did not say (a proxy stripped the header)
   */
  public long expiresInSeconds() {
    return expiresInSeconds;
  }

  /** {@return the rate-limit state after this request, or null when the response carried none} */
  public RateLimit rateLimit() {
    return rateLimit;
  }

  /**
   * The tag the service wrote into the export ({@code X-Export-Tag}): the tag asked for with
   * every character but ASCII letters, digits, {@code _} and {@code -} dropped and cut to 100,
   * or the service's default tag when nothing was left. It differs from the tag asked for when
   * the service changed it; the model's parts carry it ({@link Model#tag()}).
   *
   * @return the tag the service said it used, or null when the response did not say (a service
   *     older than API 1.2.0, or a proxy that dropped the header)
   */
  public String servedTag() {
    return servedTag;
  }

  @Override
  public String toString() {
    return "Export[" + bytes.length + " bytes, expires in " + expiresInSeconds + " s]";
  }
}
