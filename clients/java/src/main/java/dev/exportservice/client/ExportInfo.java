package dev.exportservice.client;

import java.net.http.HttpResponse;

/** What a {@code HEAD} says of an export: that it exists, its size and its remaining lifetime. */
public final class ExportInfo {
  private final long sizeBytes;
  private final long expiresInSeconds;
  private final RateLimit rateLimit;
  private final String servedTag;

  /**
   * The answer of a {@code HEAD}; for tests of code that consumes one.
   *
   * @param sizeBytes bytes a {@code GET} would return, or -1 when not said
   * @param expiresInSeconds whole seconds the export has left, or -1 when not said
   * @param rateLimit the rate-limit state, or null when the response carried none
   */
  public ExportInfo(long sizeBytes, long expiresInSeconds, RateLimit rateLimit) {
    this(sizeBytes, expiresInSeconds, rateLimit, null);
  }

  /**
   * The answer of a {@code HEAD} that said the tag it used; for tests of code that consumes one.
   *
   * @param sizeBytes bytes a {@code GET} would return, or -1 when not said
   * @param expiresInSeconds whole seconds the export has left, or -1 when not said
   * @param rateLimit the rate-limit state, or null when the response carried none
   * @param servedTag the tag a {@code GET} would write into the export, or null when not said
   */
  public ExportInfo(long sizeBytes, long expiresInSeconds, RateLimit rateLimit, String servedTag) {
    this.sizeBytes = sizeBytes;
    this.expiresInSeconds = expiresInSeconds;
    this.rateLimit = rateLimit;
    this.servedTag = servedTag;
  }

  static ExportInfo of(HttpResponse<byte[]> response) {
    return new ExportInfo(
        ResponseHeaders.wholeNumber(response.headers(), "Content-Length"),
        ResponseHeaders.wholeNumber(response.headers(), ResponseHeaders.EXPIRES_IN),
        ResponseHeaders.rateLimit(response.headers()),
        ResponseHeaders.tag(response.headers()));
  }

  /**
   * Bytes a {@code GET} with the same tag would return ({@code Content-Length}), or -1 when the
   * response did not say.
   *
   * @return bytes a {@code GET} with the same tag would return ({@code Content-Length}), or -1 when
   * the response did not say
   */
  public long sizeBytes() {
    return sizeBytes;
  }

  /** {@return whole seconds the export has left ({@code X-Export-Expires-In}), or -1 when not said} */
  public long expiresInSeconds() {
    return expiresInSeconds;
  }

  /** {@return the rate-limit state after this request, or null when the response carried none} */
  public RateLimit rateLimit() {
    return rateLimit;
  }

  /**
   * The tag a {@code GET} with the same tag would write into the export ({@code X-Export-Tag}):
   * the tag asked for as the service sanitizes it, or its default tag.
   *
   * @return the tag the service said it would use, or null when the response did not say
   */
  public String servedTag() {
    return servedTag;
  }

  @Override
  public String toString() {
    return "ExportInfo[" + sizeBytes + " bytes, expires in " + expiresInSeconds + " s]";
  }
}
