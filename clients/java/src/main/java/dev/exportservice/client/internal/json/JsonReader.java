package dev.exportservice.client.internal.json;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON parser (RFC 8259) into maps, lists, strings, {@link BigDecimal}s, booleans and
 * null, for error bodies and exports: the library may depend on nothing beyond the JDK, and
 * servers bundle different JSON libraries (or versions of one). Strings and member names are
 * decoded as {@code JSON.parse} and Gson decode them: every character kept, a U+FEFF included.
 *
 * <p>The JSON room: it depends on nothing of the library. Internal (not part of the API).
 */
public final class JsonReader {
  /** Deeper nesting is refused instead of risking the stack: exports are five levels. */
  private static final int MAX_DEPTH = 64;

  private final String text;
  private int at;

  private JsonReader(String text) {
    this.text = text;
  }

  /** The value of a whole JSON text; throws {@link IllegalArgumentException} if it is not one. */
  public static Object parse(String text) {
    JsonReader reader = new JsonReader(text);
    reader.skipWhitespace();
    Object value = reader.value(0);
    reader.skipWhitespace();
    if (reader.at != text.length()) throw reader.error("text after the value");
    return value;
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) throw error("nesting too deep");
    if (at >= text.length()) throw error("a value expected");
    char c = text.charAt(at);
    switch (c) {
      case '{':
        return object(depth);
      case '[':
        return array(depth);
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        if (c == '-' || (c >= '0' && c <= '9')) return number();
        throw error("unexpected '" + c + "'");
    }
  }

  private Map<String, Object> object(int depth) {
    Map<String, Object> fields = new LinkedHashMap<>();
    at++;
    skipWhitespace();
    if (peek('}')) {
      at++;
      return fields;
    }
    for (; ; ) {
      skipWhitespace();
      if (!peek('"')) throw error("a field name expected");
      String name = string();
      skipWhitespace();
      expect(':');
      skipWhitespace();
      // RFC 8259 leaves duplicate names open; the last wins, as in JSON.parse and Gson, so that
      // this client reads (and checks) what a plugin's own parser would read.
      fields.put(name, value(depth + 1));
      skipWhitespace();
      if (peek(',')) {
        at++;
        continue;
      }
      expect('}');
      return fields;
    }
  }

  private List<Object> array(int depth) {
    List<Object> items = new ArrayList<>();
    at++;
    skipWhitespace();
    if (peek(']')) {
      at++;
      return items;
    }
    for (; ; ) {
      skipWhitespace();
      items.add(value(depth + 1));
      skipWhitespace();
      if (peek(',')) {
        at++;
        continue;
      }
      expect(']');
      return items;
    }
  }

  private String string() {
    at++;
    StringBuilder out = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') return out.toString();
      if (c < 0x20) throw error("a control character in a string");
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) break;
      char escaped = text.charAt(at++);
      switch (escaped) {
        case '"':
        case '\\':
        case '/':
          out.append(escaped);
          break;
        case 'b':
          out.append('\b');
          break;
        case 'f':
          out.append('\f');
          break;
        case 'n':
          out.append('\n');
          break;
        case 'r':
          out.append('\r');
          break;
        case 't':
          out.append('\t');
          break;
        case 'u':
          if (at + 4 > text.length()) throw error("a short \\u escape");
          try {
            out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
          } catch (NumberFormatException e) {
            throw error("a bad \\u escape");
          }
          at += 4;
          break;
        default:
          throw error("a bad escape");
      }
    }
    throw error("an unterminated string");
  }

  private BigDecimal number() {
    int start = at;
    if (peek('-')) at++;
    if (peek('0')) {
      at++;
    } else if (!digits()) {
      throw error("digits expected");
    }
    if (peek('.')) {
      at++;
      if (!digits()) throw error("digits expected after '.'");
    }
    if (peek('e') || peek('E')) {
      at++;
      if (peek('+') || peek('-')) at++;
      if (!digits()) throw error("digits expected in the exponent");
    }
    try {
      return new BigDecimal(text.substring(start, at));
    } catch (NumberFormatException e) {
      throw error("a number out of range");
    }
  }

  private boolean digits() {
    int start = at;
    while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') at++;
    return at > start;
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, at)) throw error("unexpected '" + text.charAt(at) + "'");
    at += word.length();
    return value;
  }

  private void skipWhitespace() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return;
      at++;
    }
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("'" + c + "' expected");
    at++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("Not JSON at character " + at + ": " + what);
  }
}
