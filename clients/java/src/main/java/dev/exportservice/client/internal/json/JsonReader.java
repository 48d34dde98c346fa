package dev.exportservice.client.internal.json;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A strict JSON parser (RFC 8259) into maps ({@link JsonObject}s), lists, strings, numbers (a
 * {@link BigDecimal}, or a {@link Double} for an exponent past its range), booleans and null,
 * for error bodies and exports: the library may depend on nothing beyond the JDK, and servers
 * bundle different JSON libraries (or versions of one). It accepts what {@code JSON.parse}
 * accepts: strings and member names decoded as {@code JSON.parse} and Gson decode them (every
 * character kept, a U+FEFF included), any depth (containers are kept on a stack of its own, never
 * on the thread's).
 *
 * <p>The JSON room: it depends on nothing of the library. Internal (not part of the API).
 */
public final class JsonReader {
  private final String text;
  private int at;
  /** The bytes the last string read takes between its quotes, as written (UTF-8). */
  private long spelledBytes;

  private JsonReader(String text) {
    this.text = text;
  }

  /**
   * The value of a whole JSON text.
   *
   * @param text the text
   * @return its value
   * @throws IllegalArgumentException if it is not JSON
   */
  public static Object parse(String text) {
    JsonReader reader = new JsonReader(text);
    reader.skipWhitespace();
    Object value = reader.value();
    reader.skipWhitespace();
    if (reader.at != text.length()) throw reader.error("text after the value");
    return value;
  }

  /** One value, its containers' contents read in a loop with a stack of open containers. */
  private Object value() {
    Deque<Object> open = new ArrayDeque<>();
    Deque<String> names = new ArrayDeque<>();
    for (; ; ) {
      if (at >= text.length()) throw error("a value expected");
      char c = text.charAt(at);
      Object value;
      if (c == '{') {
        at++;
        skipWhitespace();
        if (!peek('}')) {
          open.push(new JsonObject());
          names.push(memberName());
          continue;
        }
        at++;
        value = new JsonObject();
      } else if (c == '[') {
        at++;
        skipWhitespace();
        if (!peek(']')) {
          open.push(new JsonArray());
          continue;
        }
        at++;
        value = new JsonArray();
      } else {
        value = scalar(c);
      }
      long spelled = value instanceof String ? spelledBytes : -1;
      // The value goes into the container that is open, and closes every one that ends here.
      for (; ; ) {
        if (open.isEmpty()) return value;
        Object container = open.peek();
        if (container instanceof JsonObject) {
          // RFC 8259 leaves duplicate names open; the last wins, as in JSON.parse and Gson, so
          // that this client reads (and checks) what a plugin's own parser would read.
          ((JsonObject) container).add(names.pop(), value, spelled);
        } else {
          ((JsonArray) container).add(value, spelled);
        }
        skipWhitespace();
        if (peek(',')) {
          at++;
          skipWhitespace();
          if (container instanceof JsonObject) names.push(memberName());
          break;
        }
        expect(container instanceof JsonObject ? '}' : ']');
        value = open.pop();
        spelled = -1;
      }
    }
  }

  /** A member's name and the ':' after it. */
  private String memberName() {
    if (!peek('"')) throw error("a field name expected");
    String name = string();
    skipWhitespace();
    expect(':');
    skipWhitespace();
    return name;
  }

  private Object scalar(char c) {
    switch (c) {
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

  private String string() {
    int start = ++at;
    StringBuilder out = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == '"') {
        spelledBytes = utf8Bytes(start, at - 1);
        return out.toString();
      }
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
          out.append((char) hex(text.substring(at, at + 4)));
          at += 4;
          break;
        default:
          throw error("a bad escape");
      }
    }
    throw error("an unterminated string");
  }

  /** The UTF-8 bytes of {@code text[start, end)}; a lone surrogate counts as U+FFFD, 3 bytes. */
  private long utf8Bytes(int start, int end) {
    long bytes = 0;
    for (int i = start; i < end; i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        bytes += 1;
      } else if (c < 0x800) {
        bytes += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < end && Character.isLowSurrogate(text.charAt(i + 1))) {
        bytes += 4;
        i++;
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  /** Four hex digits (and nothing else: no sign, as {@code Integer.parseInt} would allow). */
  private int hex(String digits) {
    int value = 0;
    for (int i = 0; i < 4; i++) {
      int digit = Character.digit(digits.charAt(i), 16);
      if (digit < 0 || digits.charAt(i) > 'f') throw error("a bad \\u escape");
      value = value * 16 + digit;
    }
    return value;
  }

  private Number number() {
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
    String number = text.substring(start, at);
    try {
      return new BigDecimal(number);
    } catch (NumberFormatException outOfRange) {
      // An exponent past what BigDecimal holds: JSON.parse reads it as Infinity or 0, still JSON.
      return Double.valueOf(number);
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
