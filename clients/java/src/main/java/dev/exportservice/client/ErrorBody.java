package dev.exportservice.client;

import java.math.BigDecimal;
import java.util.Map;

/**
 * What an error body says (spec 7): {@code {"error": {"code", "message", "retryAfterSeconds"}}}
 * from this service, {@code {"error": "..."}} from others, and anything at all (an HTML page
 * from a proxy, nothing) from the infrastructure in between.
 *
 * @param code {@code error.code}, or null
 * @param message {@code error.message}, or the {@code error} string, or null
 * @param retryAfterSeconds {@code error.retryAfterSeconds}, or -1
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
    if (error instanceof String) return new ErrorBody(null, (String) error, -1);
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
