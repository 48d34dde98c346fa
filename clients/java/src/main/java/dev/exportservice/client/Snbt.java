package dev.exportservice.client;

import java.util.ArrayList;
import java.util.List;

/**
 * SNBT (the game's text form of entity data) as real exports write it, parsed whole into a small
 * tree: {@link Compound}s, lists, {@link TypedArray}s, and strings (a quoted string's decoded
 * text, or an unquoted word: a number with its suffix, {@code 1b}, a bare name). Two liberties of
 * real exports are accepted: spaces around {@code :} and {@code ,}, and empty members in a
 * compound ({@code shadow:1b,,Tags:[...]}, which the game's own parser skips). Nothing may
 * follow a value: a string that closes its compound early and goes on is refused.
 *
 * <p>The same grammar as the service's check (docs/export-safety.md), rule for rule, so that
 * both reach the same verdict: a failure is an {@link UnsafeContent} of reason {@code syntax}
 * (naming the unexpected character) or {@code depth}.
 */
final class Snbt {
  /** Deepest nesting of compounds and lists accepted. */
  static final int MAX_DEPTH = 64;

  /** A compound: its members in order, repeated names included (every one is checked). */
  static final class Compound {
    final List<String> names = new ArrayList<>();
    final List<Object> values = new ArrayList<>();

    /** The value of the last member called {@code name} (the one the game keeps), or null. */
    Object get(String name) {
      for (int i = names.size() - 1; i >= 0; i--) if (names.get(i).equals(name)) return values.get(i);
      return null;
    }
  }

  /** {@code [B;...]}, {@code [I;...]}, {@code [L;...]}: numbers only, nothing the checks read. */
  static final class TypedArray {
    static final TypedArray INSTANCE = new TypedArray();

    private TypedArray() {}
  }

  private final String text;
  private int position;

  private Snbt(String text, int start) {
    this.text = text;
    this.position = start;
  }

  /**
   * The compounds of {@code text}: zero or more, separated by commas (spaces around them
   * allowed), as they go inside a summon's {@code Passengers:[...]}.
   */
  static List<Compound> compounds(String text) {
    Snbt parser = new Snbt(text, 0);
    List<Compound> compounds = new ArrayList<>();
    parser.spaces();
    if (parser.atEnd()) return compounds;
    for (; ; ) {
      compounds.add(parser.compound(0));
      parser.spaces();
      if (parser.atEnd()) return compounds;
      parser.expect(',');
      parser.spaces();
    }
  }

  /** One compound that starts at {@code start} and runs to the end of {@code text}. */
  static Compound compoundToEnd(String text, int start) {
    if (start >= text.length() || text.charAt(start) != '{') throw unexpectedAt(text, start);
    Snbt parser = new Snbt(text, start);
    Compound compound = (Compound) parser.value(0);
    if (parser.position != text.length()) throw unexpectedAt(text, parser.position);
    return compound;
  }

  /** The {@code syntax} refusal for the character at {@code at} (or the end of the text). */
  static UnsafeContent unexpectedAt(String text, int at) {
    return new UnsafeContent(UnsafeContent.Reason.SYNTAX, characterAt(text, at));
  }

  /** The character at {@code at} as a refusal names it: one code point, or "end of text". */
  static String characterAt(String text, int at) {
    return at >= text.length() ? "end of text" : new String(Character.toChars(text.codePointAt(at)));
  }

  /** Whether {@code c} may sit in an unquoted word (the game's rule): {@code 0-9 A-Z a-z _ - . +}. */
  static boolean isWordChar(char c) {
    return (c >= '0' && c <= '9')
        || (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || c == '_'
        || c == '-'
        || c == '.'
        || c == '+';
  }

  private boolean atEnd() {
    return position >= text.length();
  }

  private char at(int index) {
    return index < text.length() ? text.charAt(index) : '\0';
  }

  private void spaces() {
    while (position < text.length() && text.charAt(position) == ' ') position++;
  }

  private void expect(char c) {
    if (position >= text.length() || text.charAt(position) != c) throw unexpectedAt(text, position);
    position++;
  }

  private Object value(int depth) {
    char c = at(position);
    if (!atEnd() && c == '{') return compound(depth);
    if (!atEnd() && c == '[') return list(depth);
    if (!atEnd() && (c == '"' || c == '\'')) return quoted();
    return word();
  }

  private Compound compound(int depth) {
    enter(depth);
    expect('{');
    Compound compound = new Compound();
    for (; ; ) {
      spaces();
      if (atEnd()) throw unexpectedAt(text, position);
      char c = text.charAt(position);
      if (c == '}') break;
      if (c != ',') {
        String name = c == '"' || c == '\'' ? quoted() : word();
        spaces();
        expect(':');
        spaces();
        compound.names.add(name);
        compound.values.add(value(depth + 1));
        spaces();
        if (at(position) == '}' && !atEnd()) break;
      }
      // An empty member (",,") is skipped, as the game's parser does.
      expect(',');
    }
    position++;
    return compound;
  }

  private Object list(int depth) {
    enter(depth);
    expect('[');
    if (at(position + 1) == ';' && position + 1 < text.length() && "BIL".indexOf(at(position)) >= 0) {
      position += 2;
      items(depth, true);
      return TypedArray.INSTANCE;
    }
    return items(depth, false);
  }

  /** Items up to and including the closing ']'; a list has no empty elements. */
  private List<Object> items(int depth, boolean wordsOnly) {
    List<Object> items = new ArrayList<>();
    spaces();
    if (!atEnd() && text.charAt(position) == ']') {
      position++;
      return items;
    }
    for (; ; ) {
      spaces();
      items.add(wordsOnly ? word() : value(depth + 1));
      spaces();
      if (!atEnd() && text.charAt(position) == ']') {
        position++;
        return items;
      }
      expect(',');
    }
  }

  private String quoted() {
    char quote = text.charAt(position);
    StringBuilder value = new StringBuilder();
    for (int i = position + 1; ; i++) {
      if (i >= text.length()) throw unexpectedAt(text, i);
      char c = text.charAt(i);
      if (c == quote) {
        position = i + 1;
        return value.toString();
      }
      if (c == '\\') {
        // A backslash takes the next character as it is (\", \\, \').
        if (i + 1 >= text.length()) throw unexpectedAt(text, i + 1);
        value.append(text.charAt(++i));
      } else {
        value.append(c);
      }
    }
  }

  private String word() {
    int start = position;
    int i = start;
    while (i < text.length() && isWordChar(text.charAt(i))) i++;
    if (i == start) throw unexpectedAt(text, start);
    position = i;
    return text.substring(start, i);
  }

  private void enter(int depth) {
    if (depth >= MAX_DEPTH) {
      throw new UnsafeContent(UnsafeContent.Reason.DEPTH, String.valueOf(text.charAt(position)));
    }
  }
}
