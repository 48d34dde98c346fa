package dev.exportservice.client;

import java.net.URI;
import java.net.http.HttpHeaders;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deprecation the service announced for a call: the route, or a parameter the client sent (the
 * tag, say), will stop answering after {@code sunsetAt}. The call itself succeeded or failed as it
 * would have without it; the client tells its listener once ({@link
 * ExportClient.Builder#onDeprecation(java.util.function.Consumer)}). Read from the {@code
 * Deprecation} (RFC 9745), {@code Sunset} (RFC 8594) and {@code Link} ({@code rel="deprecation"})
 * response headers.
 *
 * @param deprecatedAt when it was (or will be) deprecated, or null when {@code Deprecation} could
 *     not be read
 * @param sunsetAt after this it may stop answering, or null when the service gave no date
 * @param link the page that says what to use instead, or null when there is none
 * @param uri the request the announcement came with
 */
public record Deprecation(Instant deprecatedAt, Instant sunsetAt, String link, URI uri) {
  private static final Pattern DATE = Pattern.compile("@(-?[0-9]{1,15})");
  private static final Pattern LINK =
      Pattern.compile("<([^>]*)>\\s*;[^,]*rel=\"?deprecation\"?", Pattern.CASE_INSENSITIVE);

  /** The announcement of a response, or null when it carries none. */
  static Deprecation of(HttpHeaders headers, URI uri) {
    String deprecation = headers.firstValue(ResponseHeaders.DEPRECATION).map(String::strip).orElse(null);
    if (deprecation == null) return null;
    Matcher date = DATE.matcher(deprecation);
    Instant deprecatedAt = date.matches() ? Instant.ofEpochSecond(Long.parseLong(date.group(1))) : null;
    Instant sunsetAt = null;
    try {
      String sunset = headers.firstValue(ResponseHeaders.SUNSET).map(String::strip).orElse(null);
      if (sunset != null) {
        sunsetAt = ZonedDateTime.parse(sunset, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      }
    } catch (DateTimeParseException unreadable) {
      // Left null: a date the client cannot read is a date it does not know.
    }
    String link = null;
    for (String value : headers.allValues(ResponseHeaders.LINK)) {
      Matcher found = LINK.matcher(value);
      if (found.find()) {
        link = found.group(1);
        break;
      }
    }
    return new Deprecation(deprecatedAt, sunsetAt, link, uri);
  }

  /** {@return the announcement in one sentence, as the client logs it without a listener} */
  public String message() {
    return "export-retrieval-service: "
        + uri.getPath()
        + " as called is deprecated"
        + (deprecatedAt == null ? "" : " since " + deprecatedAt)
        + (sunsetAt == null ? "" : " and may stop answering after " + sunsetAt)
        + (link == null ? "." : "; see " + link);
  }

  /** What makes two announcements the same one, whatever request they came with. */
  String announcement() {
    return deprecatedAt + "|" + sunsetAt + "|" + link;
  }
}
