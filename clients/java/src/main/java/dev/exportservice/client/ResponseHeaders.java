package dev.exportservice.client;

import java.net.http.HttpHeaders;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the client reads from response headers: the export's remaining lifetime, the wait a 429
 * or 503 asks for, and the rate-limit state. Every reader answers "not said" (-1 or null) for a
 * missing or unreadable value instead of guessing: a proxy may strip or mangle headers.
 */
final class ResponseHeaders {
  /** Whole seconds an export has left (a duration, like {@code X-RateLimit-Reset}). */
  static final String EXPIRES_IN = "X-Export-Expires-In";
  /** The tag the service wrote into the export: the tag asked for as sanitized, or the default. */
  static final String TAG = "X-Export-Tag";

  static final String RETRY_AFTER = "Retry-After";
  static final String LIMIT = "X-RateLimit-Limit";
  static final String REMAINING = "X-RateLimit-Remaining";
  static final String RESET = "X-RateLimit-Reset";
  /** Every window's state: {@code "short";r=117;t=50, "long";r=1197;t=3590}. */
  static final String STATE = "RateLimit";
  /** Every window's policy: {@code "short";q=120;w=60, "long";q=1200;w=3600}. */
  static final String POLICY = "RateLimit-Policy";
  /** RFC 9745: when the route or parameter used was deprecated, {@code @<unix-seconds>}. */
  static final String DEPRECATION = "Deprecation";
  /** RFC 8594: the HTTP-date after which a deprecated route or parameter may stop answering. */
  static final String SUNSET = "Sunset";
  /** With {@code rel="deprecation"}: the page that says what to use instead. */
  static final String LINK = "Link";

  private static final Pattern WHOLE_NUMBER = Pattern.compile("[0-9]{1,18}");
  private static final Pattern TAG_VALUE = Pattern.compile("[A-Za-z0-9_-]{1,100}");

  private ResponseHeaders() {}

  /** A header holding a whole number, or -1. */
  static long wholeNumber(HttpHeaders headers, String name) {
    return wholeNumber(headers.firstValue(name).orElse(null));
  }

  /** {@code X-Export-Tag}: a tag as the service keeps one, or null when missing or not a tag. */
  static String tag(HttpHeaders headers) {
    String value = headers.firstValue(TAG).map(String::strip).orElse(null);
    return value != null && TAG_VALUE.matcher(value).matches() ? value : null;
  }

  /** {@code Retry-After} in whole seconds: delay-seconds or an HTTP date (RFC 9110 10.2.3). */
  static long retryAfterSeconds(HttpHeaders headers, Instant now) {
    String value = headers.firstValue(RETRY_AFTER).map(String::strip).orElse("");
    if (value.isEmpty()) return -1;
    long seconds = wholeNumber(value);
    if (seconds >= 0) return seconds;
    try {
      Instant date = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      long millis = date.toEpochMilli() - now.toEpochMilli();
      return Math.max(0, (millis + 999) / 1000);
    } catch (DateTimeParseException e) {
      return -1;
    }
  }

  /** The rate-limit state, or null when the response carries no complete X-RateLimit trio. */
  static RateLimit rateLimit(HttpHeaders headers) {
    long limit = wholeNumber(headers, LIMIT);
    long remaining = wholeNumber(headers, REMAINING);
    long reset = wholeNumber(headers, RESET);
    if (limit < 0 || remaining < 0 || reset < 0) return null;
    return new RateLimit(limit, remaining, reset, windows(headers));
  }

  /**
   * The windows of {@code RateLimit} joined with {@code RateLimit-Policy}
   * (draft-ietf-httpapi-ratelimit-headers); a window without {@code r} and {@code t} is skipped.
   */
  private static List<RateLimit.Window> windows(HttpHeaders headers) {
    Map<String, Map<String, Long>> policies = structuredList(headers.firstValue(POLICY).orElse(null));
    List<RateLimit.Window> windows = new ArrayList<>();
    for (Map.Entry<String, Map<String, Long>> item :
        structuredList(headers.firstValue(STATE).orElse(null)).entrySet()) {
      Long remaining = item.getValue().get("r");
      Long reset = item.getValue().get("t");
      if (remaining == null || reset == null) continue;
      Map<String, Long> policy = policies.getOrDefault(item.getKey(), Map.of());
      windows.add(
          new RateLimit.Window(
              item.getKey(),
              remaining,
              reset,
              policy.getOrDefault("q", -1L),
              policy.getOrDefault("w", -1L)));
    }
    return windows;
  }

  /**
   * A structured-field List of named items with whole-number parameters, the subset these
   * fields use (RFC 9651); parameters of any other shape are skipped.
   */
  private static Map<String, Map<String, Long>> structuredList(String value) {
    Map<String, Map<String, Long>> items = new LinkedHashMap<>();
    if (value == null) return items;
    for (String member : value.split(",")) {
      String[] parts = member.split(";");
      String name = parts[0].strip();
      if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
        name = name.substring(1, name.length() - 1);
      }
      if (name.isEmpty()) continue;
      Map<String, Long> params = new LinkedHashMap<>();
      for (int i = 1; i < parts.length; i++) {
        String[] pair = parts[i].split("=", 2);
        if (pair.length != 2) continue;
        long number = wholeNumber(pair[1]);
        if (number >= 0) params.put(pair[0].strip(), number);
      }
      items.putIfAbsent(name, params);
    }
    return items;
  }

  private static long wholeNumber(String value) {
    if (value == null) return -1;
    String trimmed = value.strip();
    return WHOLE_NUMBER.matcher(trimmed).matches() ? Long.parseLong(trimmed) : -1;
  }
}
