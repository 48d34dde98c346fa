package dev.exportservice.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A reader of the game's stringified NBT as exports write it (the passengers of a summon, the
 * compound of a {@code data merge}) into maps, lists and strings: a quoted string is its
 * decoded text, an unquoted value (a number with its suffix, {@code 1b}, a bare word) its
 * spelling. Real exports contain empty members ({@code shadow:1b,,Tags:[...]}), which the game
 * accepts and so does this reader; everything else must parse completely.
 */
final class Snbt {
  /** Deeper nesting is refused instead of risking the stack; a display model is a few levels. */
  static final int MAX_DEPTH = 64;

  private final String text;
  private int at;

  private Snbt(String text) {
    this.text = text;
  }

  /**
   * The compounds of {@code text}: one or more, separated by commas, as they go inside a
   * summon's {@code Passengers:[...]}. Throws {@link IllegalArgumentException} for anything else.
   */
  static List<Map<String, Object>> compounds(String text) {
    Snbt reader = new Snbt(text);
    List<Map<String, Object>> compounds = new ArrayList<>();
    for (; ; ) {
      reader.skipWhitespace();
      if (!reader.peek('{')) throw reader.error("a compound expected");
      compounds.add(reader.compound(0));
      reader.skipWhitespace();
      if (reader.at == text.length()) return compounds;
      reader.expect(',');
    }
  }

  /** One whole compound; throws {@link IllegalArgumentException} if {@code text} is not one. */
  static Map<String, Object> compound(String text) {
    Snbt reader = new Snbt(text);
    reader.skipWhitespace();
    if (!reader.peek('{')) throw reader.error("a compound expected");
    Map<String, Object> compound = reader.compound(0);
    reader.skipWhitespace();
    if (reader.at != text.length()) throw reader.error("text after the compound");
    return compound;
  }

  private Object value(int depth) {
    if (depth > MAX_DEPTH) throw error("nesting too deep");
    if (at >= text.length()) throw error("a value expected");
    char c = text.charAt(at);
    if (c == '{') return compound(depth);
    if (c == '[') return list(depth);
    if (c == '"' || c == '\'') return quoted();
    String word = unquoted();
    if (word.isEmpty()) throw error("unexpected '" + c + "'");
    return word;
  }

  private Map<String, Object> compound(int depth) {
    if (depth > MAX_DEPTH) throw error("nesting too deep");
    Map<String, Object> fields = new LinkedHashMap<>();
    at++;
    for (; ; ) {
      skipWhitespace();
      if (peek(',')) { // an empty member, as real exports write them
        at++;
        continue;
      }
      if (peek('}')) {
        at++;
        return fields;
      }
      String key = peek('"') || peek('\'') ? quoted() : unquoted();
      if (key.isEmpty()) throw error("a key expected");
      skipWhitespace();
      expect(':');
      skipWhitespace();
      fields.put(key, value(depth + 1));
      skipWhitespace();
      if (peek(',')) {
        at++;
        continue;
      }
      expect('}');
      return fields;
    }
  }

  private List<Object> list(int depth) {
    List<Object> items = new ArrayList<>();
    at++;
    skipWhitespace();
    // A typed array: [B;1b,2b], [I;1,2], [L;1l].
    if (at + 1 < text.length()
        && "BIL".indexOf(text.charAt(at)) >= 0
        && text.charAt(at + 1) == ';') {
      at += 2;
      skipWhitespace();
    }
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

  private String quoted() {
    char quote = text.charAt(at++);
    StringBuilder out = new StringBuilder();
    while (at < text.length()) {
      char c = text.charAt(at++);
      if (c == quote) return out.toString();
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (at >= text.length()) break;
      out.append(text.charAt(at++));
    }
    throw error("an unterminated string");
  }

  private String unquoted() {
    int start = at;
    while (at < text.length() && isUnquotedChar(text.charAt(at))) at++;
    return text.substring(start, at);
  }

  /** The characters of an unquoted SNBT string or number: {@code 0-9 A-Z a-z _ - . +}. */
  static boolean isUnquotedChar(char c) {
    return (c >= '0' && c <= '9')
        || (c >= 'a' && c <= 'z')
        || (c >= 'A' && c <= 'Z')
        || c == '_'
        || c == '-'
        || c == '.'
        || c == '+';
  }

  private void skipWhitespace() {
    while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
  }

  private boolean peek(char c) {
    return at < text.length() && text.charAt(at) == c;
  }

  private void expect(char c) {
    if (!peek(c)) throw error("'" + c + "' expected");
    at++;
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("Not SNBT at character " + at + ": " + what);
  }
}
