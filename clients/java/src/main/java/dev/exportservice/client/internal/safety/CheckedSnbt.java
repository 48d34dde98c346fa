package dev.exportservice.client.internal.safety;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * SNBT as the check reads it (src/export-safety/snbt.ts, rule for rule): an entity's compound is
 * read into a small tree of what the checks need (its ids, tags and passengers); every other
 * member's value is checked against its type (the vocabulary file's {@code keyTypes}) while it
 * is read, building nothing, so that the first fault met, left to right, is the verdict. Two
 * liberties of real exports are accepted: a space around {@code :} and {@code ,}, and empty
 * members in a compound. In quoted strings only {@code \\} and a backslash before the string's
 * own quote are escapes: Minecraft 1.21.4 refuses the others and 1.21.5 and later decode them,
 * so they would read differently by version.
 *
 * <p>The model room reads exports with the SNBT room's parser; this one is the check's, so that
 * its order of faults is the TypeScript check's own.
 */
final class CheckedSnbt {
  private static final String ID = "id";
  private static final String TAGS = "Tags";
  private static final String PASSENGERS = "Passengers";
  private static final SnbtValue.ListOf EMPTY_LIST = new SnbtValue.ListOf(List.of());
  /** A list of unquoted words, spaces allowed around them and the commas: {@code [0f, 1.5f,-2f]}. */
  private static final Pattern WORD_LIST = Pattern.compile("\\[ *[0-9A-Za-z_\\-.+]+(?: *, *[0-9A-Za-z_\\-.+]+)* *\\]");

  /** Takes each compound of a {@code Passengers} list as soon as it closes (its own first). */
  private final Consumer<SnbtValue.Compound> onPassenger;
  private final String text;
  int position;
  /** Where the value being read sits in its entity's compound: names and list indexes. */
  private List<Object> path = new ArrayList<>();
  /** Where the strings of a {@code Tags} list being read go. */
  private List<String> tags;
  private final Matcher wordList;

  private CheckedSnbt(String text, int start, Consumer<SnbtValue.Compound> onPassenger) {
    this.text = text;
    this.position = start;
    this.onPassenger = onPassenger;
    this.wordList = WORD_LIST.matcher(text);
  }

  /** One value parsed from {@code start} (no leading space), and where it ends. */
  record Parse(SnbtValue value, int end) {}

  /** Parses one value starting at {@code start}; the caller decides what may follow. */
  static Parse value(String text, int start, Consumer<SnbtValue.Compound> onPassenger) {
    CheckedSnbt parser = new CheckedSnbt(text, start, onPassenger);
    SnbtValue value = parser.value(0, false);
    return new Parse(value, parser.position);
  }

  /** Takes a compound and where it starts and ends in the text (-1 for a nested passenger). */
  interface CompoundSite {
    void accept(SnbtValue.Compound compound, int start, int end);
  }

  /**
   * Parses {@code text} as zero or more compounds separated by commas (spaces around them
   * allowed), handing each to {@code each} as soon as it is parsed, nested passengers first.
   */
  static void forEachCompound(String text, CompoundSite each) {
    CheckedSnbt parser = new CheckedSnbt(text, 0, compound -> each.accept(compound, -1, -1));
    parser.spaces();
    if (parser.atEnd()) return;
    for (; ; ) {
      int start = parser.position;
      SnbtValue.Compound compound = parser.compound(0, false);
      each.accept(compound, start, parser.position);
      parser.spaces();
      if (parser.atEnd()) return;
      parser.expect(',');
      parser.spaces();
    }
  }

  /** The {@code syntax} refusal for the character at {@code at} (or the end of the text). */
  static UnsafeContent unexpectedAt(String text, int at) {
    return new UnsafeContent(UnsafeContent.Reason.SYNTAX, characterAt(text, at));
  }

  /** The character at {@code at} as found in a refusal: one code point, or {@code end of text}. */
  static String characterAt(String text, int at) {
    return at >= text.length() ? "end of text" : new String(Character.toChars(text.codePointAt(at)));
  }

  /** Whether a UTF-16 unit may sit in an unquoted word (the game's rule). */
  static boolean isWordUnit(int unit) {
    return (unit >= '0' && unit <= '9')
        || (unit >= 'A' && unit <= 'Z')
        || (unit >= 'a' && unit <= 'z')
        || unit == '_'
        || unit == '-'
        || unit == '.'
        || unit == '+';
  }

  boolean atEnd() {
    return position >= text.length();
  }

  /** The unit at {@code index}, or -1 past the end (JavaScript's {@code undefined}). */
  private int at(int index) {
    return index < text.length() ? text.charAt(index) : -1;
  }

  void spaces() {
    while (at(position) == ' ') position++;
  }

  void expect(char c) {
    if (at(position) != c) throw unexpectedAt(text, position);
    position++;
  }

  SnbtValue value(int depth, boolean whole) {
    int c = at(position);
    if (c == '{') return compound(depth, whole);
    if (c == '[') return list(depth, whole);
    if (c == '"' || c == '\'') return new SnbtValue.Text(quoted(), true);
    return new SnbtValue.Text(word(), false);
  }

  /** Parses a value to its end, building nothing. */
  void skipValue(int depth) {
    int c = at(position);
    if (c == '"' || c == '\'') {
      skipQuoted();
      return;
    }
    if (c != '{' && c != '[') {
      skipWord();
      return;
    }
    enter(depth);
    if (c == '[') {
      // A list of one or more words (a transformation, a rotation): one match, the same grammar.
      if (wordList.region(position, text.length()).lookingAt()) {
        position = wordList.end();
        return;
      }
    }
    position++;
    boolean isList = c == '[';
    int close = isList ? ']' : '}';
    boolean typed = isList && at(position + 1) == ';' && (at(position) == 'B' || at(position) == 'I' || at(position) == 'L');
    if (typed) position += 2;
    for (; ; ) {
      spaces();
      int next = at(position);
      if (next == close) break;
      if (!isList && next == ',') {
        // An empty member (`,,`) is skipped, as the game's parser does.
        position++;
        continue;
      }
      if (!isList) {
        if (next == '"' || next == '\'') skipQuoted();
        else skipWord();
        spaces();
        expect(':');
        spaces();
      }
      if (typed) skipWord();
      else skipValue(depth + 1);
      spaces();
      if (at(position) == close) break;
      expect(',');
      // A list has no empty elements: a value must follow its comma.
      if (isList) {
        spaces();
        if (at(position) == close) throw unexpectedAt(text, position);
      }
    }
    position++;
  }

  /**
   * A compound. {@code whole}: everything kept (a text's tree). Otherwise an entity's compound:
   * {@code id} kept whole, {@code Passengers} handed to the passenger hook, a key of the key types
   * checked against its type as it is read (the tags of {@code Tags} kept), any other member read
   * to its end and kept as null (a {@code key} refusal later).
   */
  SnbtValue.Compound compound(int depth, boolean whole) {
    enter(depth);
    expect('{');
    List<Map.Entry<String, SnbtValue>> members = new ArrayList<>();
    List<Object> outerPath = path;
    if (!whole) path = new ArrayList<>();
    for (; ; ) {
      spaces();
      int c = at(position);
      if (c == '}') break;
      if (c != ',') {
        String name = c == '"' || c == '\'' ? quoted() : word();
        spaces();
        expect(':');
        spaces();
        members.add(new java.util.AbstractMap.SimpleImmutableEntry<>(name, member(name, depth, whole)));
        spaces();
        if (at(position) == '}') break;
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      expect(',');
    }
    path = outerPath;
    position++;
    return new SnbtValue.Compound(members);
  }

  /** The value of the member {@code name} of a compound ({@link #compound} says how). */
  private SnbtValue member(String name, int depth, boolean whole) {
    if (whole || name.equals(ID)) return value(depth + 1, true);
    if (name.equals(PASSENGERS) && onPassenger != null) return passengers(depth + 1);
    ValueType type = ValueType.KEY_TYPES.get(name);
    if (type == null) {
      skipValue(depth + 1);
      return null;
    }
    path.add(name);
    if (!name.equals(TAGS)) {
      typed(type, depth + 1);
      path.remove(path.size() - 1);
      return null;
    }
    List<String> found = new ArrayList<>();
    tags = found;
    typed(type, depth + 1);
    tags = null;
    path.remove(path.size() - 1);
    List<SnbtValue> items = new ArrayList<>();
    for (String tag : found) items.add(new SnbtValue.Text(tag, true));
    return new SnbtValue.ListOf(items);
  }

  /** The shape of the value at the current position (its first characters). */
  private ValueType.Shape shape() {
    int c = at(position);
    if (c == '{') return ValueType.Shape.COMPOUND;
    if (c == '[') {
      int letter = at(position + 1);
      boolean typed = at(position + 2) == ';' && (letter == 'B' || letter == 'I' || letter == 'L');
      return typed ? ValueType.Shape.ARRAY : ValueType.Shape.LIST;
    }
    return c == '"' || c == '\'' ? ValueType.Shape.QUOTED : ValueType.Shape.WORD;
  }

  /** The {@code type} refusal at the current path ({@code transformation[3]}, {@code brightness.sky}). */
  private UnsafeContent typeFault() {
    return new UnsafeContent(UnsafeContent.Reason.TYPE, pathText());
  }

  private String pathText() {
    StringBuilder out = new StringBuilder();
    for (Object segment : path) {
      if (segment instanceof Integer) out.append('[').append(segment).append(']');
      else if (out.length() == 0) out.append(segment);
      else out.append('.').append(segment);
    }
    return out.toString();
  }

  /**
   * Reads one value against {@code type}, building nothing: the alternative is picked by the
   * value's shape when its first character is met (none reads it: {@code type}), then the value
   * is read and checked as it goes; the first fault met is thrown.
   */
  private void typed(ValueType type, int depth) {
    ValueType.Shape shape = shape();
    ValueType chosen = type.pick(shape);
    if (chosen == null) throw typeFault();
    switch (chosen.kind) {
      case COMPOUND:
        typedCompound(chosen, depth);
        return;
      case LIST:
      case ARRAY:
        typedList(chosen, depth);
        return;
      case STRING:
        typedString(chosen);
        return;
      case ENUM:
        String value = shape == ValueType.Shape.QUOTED ? quoted() : word();
        if (shape == ValueType.Shape.QUOTED) placeholderOnly(value, false);
        if (!chosen.values.contains(value)) throw typeFault();
        return;
      case NUMBER:
        if (!chosen.isNumberWord(word())) throw typeFault();
        return;
      case BOOLEAN:
        if (!ValueType.isBooleanWord(word())) throw typeFault();
        return;
      case TEXT:
        typedText(chosen.of, shape, depth);
        return;
      default:
        // `pick` never answers a `oneOf`.
        throw typeFault();
    }
  }

  private void typedCompound(ValueType type, int depth) {
    enter(depth);
    expect('{');
    for (; ; ) {
      spaces();
      int c = at(position);
      if (c == '}') break;
      if (c != ',') {
        boolean quotedName = c == '"' || c == '\'';
        String name = quotedName ? quoted() : word();
        path.add(name);
        if (quotedName) placeholderOnly(name, false);
        ValueType memberType = type.memberType(name);
        if (memberType == null) {
          if (type.unknown.equals("component")) throw new UnsafeContent(UnsafeContent.Reason.COMPONENT, name);
          throw typeFault();
        }
        spaces();
        expect(':');
        spaces();
        typed(memberType, depth + 1);
        path.remove(path.size() - 1);
        spaces();
        if (at(position) == '}') break;
      }
      expect(',');
    }
    position++;
  }

  /** A list (or a typed array) of {@code type.of}, of {@code type.length} items when given. */
  private void typedList(ValueType type, int depth) {
    enter(depth);
    position++;
    if (type.kind == ValueType.Kind.ARRAY) {
      if (at(position) != type.prefix.charAt(0)) throw typeFault();
      position += 2;
    }
    int count = 0;
    spaces();
    if (at(position) != ']') {
      for (; ; ) {
        spaces();
        path.add(count);
        if (type.kind == ValueType.Kind.ARRAY && shape() != ValueType.Shape.WORD) throw typeFault();
        typed(type.of, depth + 1);
        path.remove(path.size() - 1);
        count++;
        spaces();
        if (at(position) == ']') break;
        expect(',');
      }
    }
    position++;
    if (type.length != null && count != type.length) throw typeFault();
  }

  private void typedString(ValueType type) {
    String value = quoted();
    placeholderOnly(value, type.placeholder);
    if (type.placeholder && tags != null) tags.add(value);
    if (type.pattern != null && !type.pattern.matcher(value).matches()) throw typeFault();
  }

  /**
   * Throws the {@code placeholder} refusal when {@code value} holds the tag placeholder anywhere
   * but where the editor writes it: with {@code atStart}, once, at its start, followed by
   * {@code _} or its end.
   */
  private void placeholderOnly(String value, boolean atStart) {
    int found = value.indexOf(Vocabulary.PLACEHOLDER);
    if (found < 0) return;
    int length = Vocabulary.PLACEHOLDER.length();
    boolean endsOrUnderscore = value.length() == length || value.charAt(length) == '_';
    if (atStart && found == 0 && endsOrUnderscore && value.indexOf(Vocabulary.PLACEHOLDER, 1) < 0) return;
    throw new UnsafeContent(UnsafeContent.Reason.PLACEHOLDER, pathText());
  }

  /** Text: a quoted string of JSON text, or text written as SNBT, read whole ({@link JsonText}). */
  private void typedText(ValueType type, ValueType.Shape shape, int depth) {
    Supplier<String> where = this::pathText;
    if (shape == ValueType.Shape.QUOTED) {
      String value = quoted();
      placeholderOnly(value, false);
      JsonText.checkJson(value, type, where);
      return;
    }
    SnbtValue tree = value(depth, true);
    if (holdsPlaceholder(tree)) throw new UnsafeContent(UnsafeContent.Reason.PLACEHOLDER, pathText());
    JsonText.checkSnbt(tree, type, where);
  }

  private SnbtValue list(int depth, boolean whole) {
    enter(depth);
    expect('[');
    int first = at(position);
    if (at(position + 1) == ';' && (first == 'B' || first == 'I' || first == 'L')) {
      position += 2;
      items(depth, () -> new SnbtValue.Text(word(), false));
      return new SnbtValue.Array();
    }
    return new SnbtValue.ListOf(items(depth, () -> value(depth + 1, whole)));
  }

  /**
   * A passenger's {@code Passengers}: each compound handed to {@link #onPassenger} as it closes.
   * Anything else than a list of compounds is the {@code key} refusal of {@code Passengers}.
   */
  private SnbtValue passengers(int depth) {
    if (at(position) != '[') throw new UnsafeContent(UnsafeContent.Reason.KEY, PASSENGERS);
    enter(depth);
    position++;
    items(
        depth,
        () -> {
          if (at(position) != '{') throw new UnsafeContent(UnsafeContent.Reason.KEY, PASSENGERS);
          onPassenger.accept(compound(depth + 1, false));
          return EMPTY_LIST;
        });
    return EMPTY_LIST;
  }

  /** Items up to and including the closing {@code ]}. */
  private List<SnbtValue> items(int depth, Supplier<SnbtValue> item) {
    List<SnbtValue> items = new ArrayList<>();
    spaces();
    if (at(position) == ']') {
      position++;
      return items;
    }
    for (; ; ) {
      spaces();
      items.add(item.get());
      spaces();
      if (at(position) == ']') {
        position++;
        return items;
      }
      expect(',');
    }
  }

  /** A quoted string's value, after the reader rule on its raw text. */
  private String quoted() {
    int quote = text.charAt(position);
    int start = position + 1;
    StringBuilder value = new StringBuilder();
    int from = start;
    for (int i = from; ; i++) {
      if (i >= text.length()) throw unexpectedAt(text, i);
      char unit = text.charAt(i);
      if (unit == quote) {
        position = i + 1;
        Readers.check(text.substring(start, i));
        return value.append(text, from, i).toString();
      }
      if (unit == '\\') {
        checkEscape(text, i, quote);
        value.append(text, from, i).append(text.charAt(i + 1));
        i++;
        from = i + 1;
      }
    }
  }

  /** A quoted string to its end, after the reader rule on its raw text; no value built. */
  private void skipQuoted() {
    int quote = text.charAt(position);
    int start = position + 1;
    for (int i = start; i < text.length(); i++) {
      char unit = text.charAt(i);
      if (unit == quote) {
        position = i + 1;
        Readers.check(text.substring(start, i));
        return;
      }
      if (unit == '\\') {
        checkEscape(text, i, quote);
        i++;
      }
    }
    throw unexpectedAt(text, text.length());
  }

  private void skipWord() {
    word();
  }

  private String word() {
    int start = position;
    int i = start;
    while (i < text.length() && isWordUnit(text.charAt(i))) i++;
    if (i == start) throw unexpectedAt(text, start);
    position = i;
    return text.substring(start, i);
  }

  private void enter(int depth) {
    if (depth >= Vocabulary.MAX_SNBT_DEPTH) throw new UnsafeContent(UnsafeContent.Reason.DEPTH, String.valueOf(text.charAt(position)));
  }

  /**
   * Throws unless the backslash at {@code at} of a string quoted with {@code quote} escapes a
   * backslash or that quote: the only escapes Minecraft 1.21.4 and 1.21.5+ read alike
   * ({@code escape}, found the backslash and the character after it).
   */
  private static void checkEscape(String text, int at, int quote) {
    if (at + 1 >= text.length()) throw unexpectedAt(text, at + 1);
    char next = text.charAt(at + 1);
    if (next == '\\' || next == quote) return;
    throw new UnsafeContent(UnsafeContent.Reason.ESCAPE, "\\" + new String(Character.toChars(text.codePointAt(at + 1))));
  }

  /** Whether a tree (text written as SNBT) holds the placeholder in a string or a member name. */
  private static boolean holdsPlaceholder(SnbtValue value) {
    if (value == null || value instanceof SnbtValue.Array) return false;
    if (value instanceof SnbtValue.Text text) return text.value().contains(Vocabulary.PLACEHOLDER);
    if (value instanceof SnbtValue.ListOf list) {
      for (SnbtValue item : list.items()) if (holdsPlaceholder(item)) return true;
      return false;
    }
    for (Map.Entry<String, SnbtValue> member : ((SnbtValue.Compound) value).members()) {
      if (member.getKey().contains(Vocabulary.PLACEHOLDER) || holdsPlaceholder(member.getValue())) return true;
    }
    return false;
  }
}
