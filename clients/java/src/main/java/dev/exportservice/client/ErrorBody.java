package dev.exportservice.client;

import dev.exportservice.client.internal.json.JsonReader;
import java.math.BigDecimal;
import java.util.Map;

/**
 * What an error body says. The service answers every error but 429 with
 * {@code {"error": "<message>", "code": "<code>", ...}} (the other fields, such as
 * {@code retryAfterSeconds}, beside {@code code}), and 429 with
 * {@code {"error": {"code": "rate_limited", "message": ..., "retryAfterSeconds": n}}}; older
 * versions of the service sent the object form for every error. Both are read, and anything at
 * all (an HTML page from a proxy, nothing) from the infrastructure in between is not an error.
 *
 * @param code {@code error.code} or the top-level {@code code}, or null
 * @param message {@code error.message}, or the {@code error} string, or null
 * @param retryAfterSeconds {@code retryAfterSeconds} beside the code, or -1
 */
record ErrorBody(String code, String message, long retryAfterSeconds) {
  private static final ErrorBody NONE = new ErrorBody(null, null, -1);
  /** Larger bodies are not the service's errors (a few hundred bytes): not worth parsing. */
  private static final int MAX_PARSED_CHARS = 64 * 1024;
  /** Above 2^53 a JSON number is not an exact integer in every parser: treated as not said. */
  private static final BigDecimal MAX_EXACT_INTEGER = BigDecimal.valueOf(1L << 53);

  /** Parses an error body's text; never throws. */
  static ErrorBody parse(String text) {
    if (text.length() > MAX_PARSED_CHARS) return NONE;
    Object document;
    try {
      document = JsonReader.parse(text);
    } catch (IllegalArgumentException notJson) {
      return NONE;
    }
    Object error = document instanceof Map ? ((Map<?, ?>) document).get("error") : null;
    if (error instanceof String) {
      // The flat form: the code and the other fields beside the message.
      Map<?, ?> fields = (Map<?, ?>) document;
      Object code = fields.get("code");
      return new ErrorBody(
          code instanceof String ? (String) code : null,
          (String) error,
          wholeSeconds(fields.get("retryAfterSeconds")));
    }
    if (!(error instanceof Map)) return NONE;
    Map<?, ?> fields = (Map<?, ?>) error;
    Object code = fields.get("code");
    Object message = fields.get("message");
    return new ErrorBody(
        code instanceof String ? (String) code : null,
        message instanceof String ? (String) message : null,
        wholeSeconds(fields.get("retryAfterSeconds")));
  }

  /** The body's message, or {@code fallback} when it had none. */
  String messageOr(String fallback) {
    return message == null || message.isBlank() ? fallback : message;
  }

  private static long wholeSeconds(Object value) {
    if (!(value instanceof BigDecimal)) return -1;
    BigDecimal number = (BigDecimal) value;
    if (number.signum() < 0 || number.compareTo(MAX_EXACT_INTEGER) > 0) return -1;
    try {
      return number.longValueExact();
    } catch (ArithmeticException fraction) {
      return -1;
    }
  }
}
