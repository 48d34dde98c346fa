package dev.exportservice.client;

import java.net.http.HttpResponse;

/** What a {@code HEAD} says of an export: that it exists, its size and its remaining lifetime. */
public final class ExportInfo {
  private final long sizeBytes;
  private final long expiresInSeconds;
  private final RateLimit rateLimit;

  /**
   * The answer of a {@code HEAD}; for tests of code that consumes one.
   *
   * @param sizeBytes bytes a {@code GET} would return, or -1 when not said
   * @param expiresInSeconds whole seconds the export has left, or -1 when not said
   * @param rateLimit the rate-limit state, or null when the response carried none
   */
  public ExportInfo(long sizeBytes, long expiresInSeconds, RateLimit rateLimit) {
    this.sizeBytes = sizeBytes;
    this.expiresInSeconds = expiresInSeconds;
    this.rateLimit = rateLimit;
  }

  static ExportInfo of(HttpResponse<byte[]> response) {
    return new ExportInfo(
        ResponseHeaders.wholeNumber(response.headers(), "Content-Length"),
        ResponseHeaders.wholeNumber(response.headers(), ResponseHeaders.EXPIRES_IN),
        ResponseHeaders.rateLimit(response.headers()));
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

  @Override
  public String toString() {
    return "ExportInfo[" + sizeBytes + " bytes, expires in " + expiresInSeconds + " s]";
  }
}
