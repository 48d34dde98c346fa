package dev.exportservice.client.internal.syntax;

import dev.exportservice.client.internal.snbt.SnbtReader;
import dev.exportservice.client.internal.snbt.SnbtValue;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.ValueType;
import dev.exportservice.client.internal.types.Vocabulary;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * SNBT as the check reads it (src/export-safety/syntax/snbt.ts, rule for rule), with the library's one
 * SNBT reader ({@link SnbtReader}: its grammar, escapes, reader rule and depth limit): an
 * entity's compound is read into a small tree of what the checks need (its ids, tags and
 * passengers); every other member's value is checked against its type (the vocabulary file's
 * {@code keyTypes}) while it is read, building nothing, so that the first fault met, left to
 * right, is the verdict. Every fault is thrown as the check's {@link UnsafeContent}.
 */
public final class CheckedSnbt extends SnbtReader {
  private static final String ID = "id";
  private static final String PASSENGERS = "Passengers";
  private static final SnbtValue.ListOf EMPTY_LIST = new SnbtValue.ListOf(List.of());

  /** Takes each compound of a {@code Passengers} list as soon as it closes (its own first). */
  private final Consumer<SnbtValue.Compound> onPassenger;
  /** The types of an entity's keys, as the export's declared version reads them ({@link Versions#keyTypesOf}). */
  private final Map<String, ValueType> keyTypes;
  /** Where the value being read sits in its entity's compound: names and list indexes. */
  private List<Object> path = new ArrayList<>();
  /** Where the strings of a {@code Tags} list being read go. */
  private List<String> tags;

  private CheckedSnbt(String text, int start, Map<String, ValueType> keyTypes, Consumer<SnbtValue.Compound> onPassenger) {
    super(text, start);
    this.keyTypes = keyTypes;
    this.onPassenger = onPassenger;
  }

  /** One value parsed from {@code start} (no leading space), and where it ends. */
  public record Parse(SnbtValue value, int end) {}

  /** Parses one value starting at {@code start}; the caller decides what may follow. */
  public static Parse value(String text, int start, Map<String, ValueType> keyTypes, Consumer<SnbtValue.Compound> onPassenger) {
    CheckedSnbt parser = new CheckedSnbt(text, start, keyTypes, onPassenger);
    SnbtValue value = parser.value(0, false);
    return new Parse(value, parser.position);
  }

  /** Takes a compound and where it starts and ends in the text (-1 for a nested passenger). */
  public interface CompoundSite {
    void accept(SnbtValue.Compound compound, int start, int end);
  }

  /**
   * Parses {@code text} as zero or more compounds separated by commas (spaces around them
   * allowed), handing each to {@code each} as soon as it is parsed, nested passengers first.
   */
  public static void forEachCompound(String text, Map<String, ValueType> keyTypes, CompoundSite each) {
    CheckedSnbt parser = new CheckedSnbt(text, 0, keyTypes, compound -> each.accept(compound, -1, -1));
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
  public static UnsafeContent unexpectedAt(String text, int at) {
    return new UnsafeContent(UnsafeContent.Reason.SYNTAX, characterAt(text, at));
  }

  /** The reader's faults are the check's refusals of the same names. */
  @Override
  protected RuntimeException fault(SnbtReader.Fault fault, String found) {
    return new UnsafeContent(UnsafeContent.Reason.valueOf(fault.name()), found);
  }

  /**
   * A compound. {@code whole}: everything kept (a text's tree). Otherwise an entity's compound:
   * {@code id} kept whole, {@code Passengers} handed to the passenger hook, a key of the key types
   * checked against its type as it is read (the tags of {@code Tags} kept), any other member read
   * to its end and kept as null (a {@code key} refusal later).
   */
  @Override
  protected SnbtValue.Compound compound(int depth, boolean whole) {
    if (whole) return super.compound(depth, true);
    List<Object> outerPath = path;
    path = new ArrayList<>();
    SnbtValue.Compound compound = super.compound(depth, false);
    path = outerPath;
    return compound;
  }

  /** The value of the member {@code name} of a compound ({@link #compound} says how). */
  @Override
  protected SnbtValue member(String name, int depth, boolean whole) {
    if (whole || name.equals(ID)) return super.member(name, depth, true);
    if (name.equals(PASSENGERS) && onPassenger != null) return passengers(depth + 1);
    ValueType type = keyTypes.get(name);
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
        typedString(chosen, shape);
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

  /** A string: quoted, or ({@code shape} a word) an unquoted word its type reads as one. */
  private void typedString(ValueType type, ValueType.Shape shape) {
    boolean isQuoted = shape == ValueType.Shape.QUOTED;
    String value = isQuoted ? quoted() : word();
    if (!isQuoted && !type.isStringWord(value)) throw typeFault();
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
      if (value.length() > Vocabulary.MAX_TEXT_CHARS) throw textTooLong();
      placeholderOnly(value, false);
      JsonText.checkJson(value, type, where);
      return;
    }
    int start = position;
    SnbtValue tree = value(depth, true);
    if (position - start > Vocabulary.MAX_TEXT_CHARS) throw textTooLong();
    if (holdsPlaceholder(tree)) throw new UnsafeContent(UnsafeContent.Reason.PLACEHOLDER, pathText());
    JsonText.checkSnbt(tree, type, where);
  }

  /** A text longer than {@link Vocabulary#MAX_TEXT_CHARS}, named by where it is in the SNBT. */
  private UnsafeContent textTooLong() {
    return new UnsafeContent(UnsafeContent.Reason.LENGTH, pathText(), "lengthText");
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
        () -> {
          if (at(position) != '{') throw new UnsafeContent(UnsafeContent.Reason.KEY, PASSENGERS);
          onPassenger.accept(compound(depth + 1, false));
          return EMPTY_LIST;
        });
    return EMPTY_LIST;
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
