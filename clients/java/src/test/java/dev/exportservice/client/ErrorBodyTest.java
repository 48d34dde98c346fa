package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.exportservice.client.internal.json.JsonReader;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ErrorBodyTest {
  @Test
  void readsTheServicesErrorObject() {
    assertEquals(
        new ErrorBody("rate_limited", "Too many requests. Retry after 3 seconds.", 3),
        ErrorBody.parse(
            "{\"error\":{\"code\":\"rate_limited\",\"message\":\"Too many requests. Retry after 3 seconds.\",\"retryAfterSeconds\":3}}"));
  }

  @Test
  void readsTheFlatFormWithTheCodeAndFieldsBesideTheMessage() {
    assertEquals(
        new ErrorBody("not_ready", "The export is not visible here yet.", 2),
        ErrorBody.parse(
            "{\"error\":\"The export is not visible here yet.\",\"code\":\"not_ready\",\"retryAfterSeconds\":2}"));
    assertEquals(
        new ErrorBody("too_large", "Too large.", -1),
        ErrorBody.parse("{\"error\":\"Too large.\",\"code\":\"too_large\",\"limitBytes\":26214400}"));
    assertEquals(new ErrorBody(null, "x", -1), ErrorBody.parse("{\"error\":\"x\",\"code\":7}"));
  }

  @Test
  void aMessageIsPlainText() {
    assertEquals("a b c", PlainText.of("a\r\n\u0007b\u2028c"));
    assertEquals("abc", PlainText.of("\u202ea\u2066b\u200f\u00a7c\ufeff"));
    assertEquals("é 😀", PlainText.of("é 😀"));
    assertEquals("x", PlainText.of("\ud800x"), "a lone surrogate");
    assertEquals(PlainText.MAX_CHARS + 1, PlainText.of("y".repeat(5000)).length());
    assertEquals(null, PlainText.of(null));
  }

  @Test
  void readsAnErrorStringAndIgnoresWhatIsNotAnError() {
    assertEquals(new ErrorBody(null, "Bad gateway \u00e9\n", -1), ErrorBody.parse(" {\"error\" : \"Bad gateway \\u00e9\\n\"} "));
    ErrorBody none = new ErrorBody(null, null, -1);
    for (String body :
        List.of("", "<html>502</html>", "{\"error\":{\"code\":\"x\"", "[1,2]", "{\"error\":null}", "{\"content\":{}}", "{\"error\":{}} trailing")) {
      assertEquals(none, ErrorBody.parse(body), body);
    }
    assertEquals(none, ErrorBody.parse("[".repeat(10_000)));
  }

  @Test
  void keepsOnlyWholeNonNegativeRetryAfterSeconds() {
    for (String value : List.of("-1", "1.5", "\"3\"", "1e300", "9007199254740993")) {
      assertEquals(-1, ErrorBody.parse("{\"error\":{\"retryAfterSeconds\":" + value + "}}").retryAfterSeconds(), value);
    }
    assertEquals(2, ErrorBody.parse("{\"error\":{\"retryAfterSeconds\":2.0}}").retryAfterSeconds());
  }

  @Test
  void theJsonReaderIsStrict() {
    assertEquals(Map.of("a", List.of(true, false), "b", "\"/\\"), JsonReader.parse("{\"a\":[true,false],\"b\":\"\\\"\\/\\\\\"}"));
    for (String bad : List.of("{a:1}", "[1,]", "01", "\"\t\"", "nul", "{\"a\":1,}", "\"\\x\"")) {
      assertThrows(IllegalArgumentException.class, () -> JsonReader.parse(bad), bad);
    }
  }
}
