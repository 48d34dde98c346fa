package dev.exportservice.client.internal.snbt;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * SNBT (the game's text form of entity data) as real exports write it, parsed whole into a small
 * tree: {@link Compound}s, lists, {@link TypedArray}s, and strings (a quoted string's decoded
 * text, or an unquoted word: a number with its suffix, {@code 1b}, a bare name). Two liberties of
 * real exports are accepted: spaces around {@code :} and {@code ,}, and empty members in a
 * compound ({@code shadow:1b,,Tags:[...]}, which the game's own parser skips). Nothing may
 * follow a value: a string that closes its compound early and goes on is refused.
 *
 * <p>The same grammar as the service's check (docs/export-safety.md), rule for rule. A failure
 * is an {@link Unreadable}: the unexpected character, or a nesting past {@link #MAX_DEPTH}.
 * Besides the tree, a {@link Reading} says where each top-level compound sits in the text and
 * where every entity tag ({@code Tags:[...]}) sits: the one place the library finds tags.
 */
public final class Snbt {
  /** Deepest nesting of compounds and lists accepted: the vocabulary file's {@code maxSnbtDepth}. */
  public static final int MAX_DEPTH = VocabularyFile.integer("limits", "maxSnbtDepth");

  /** A compound: its members in order, repeated names included (every one is checked). */
  public static final class Compound {
    private final List<String> names = new ArrayList<>();
    private final List<Object> values = new ArrayList<>();

    Compound() {}

    /** {@return how many members, repeated names counted} */
    public int size() {
      return names.size();
    }

    /**
     * The name of member {@code index}.
     *
     * @param index in document order
     * @return its name
     */
    public String name(int index) {
      return names.get(index);
    }

    /**
     * The value of member {@code index}: a {@link Compound}, a {@link List}, a {@link TypedArray}
     * or a {@link String}.
     *
     * @param index in document order
     * @return its value
     */
    public Object value(int index) {
      return values.get(index);
    }

    /**
     * The value of the last member called {@code name} (the one the game keeps), or null.
     *
     * @param name the member's name
     * @return its value, or null
     */
    public Object get(String name) {
      for (int i = names.size() - 1; i >= 0; i--) if (names.get(i).equals(name)) return values.get(i);
      return null;
    }
  }

  /** {@code [B;...]}, {@code [I;...]}, {@code [L;...]}: numbers only, nothing the checks read. */
  public static final class TypedArray {
    static final TypedArray INSTANCE = new TypedArray();

    private TypedArray() {}
  }

  /** Why a text is not SNBT as exports write it. */
  public static final class Unreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What is wrong. */
    public enum Kind {
      /** An unexpected character. */
      SYNTAX,
      /** Nesting deeper than {@link #MAX_DEPTH}. */
      DEPTH,
      /** Passengers read one by one that are not a list of compounds. */
      PASSENGERS
    }

    /** What is wrong. */
    public final Kind kind;
    /**
     * The unexpected character (one code point, or {@code end of text}), the character where
     * nesting went too deep, or {@code Passengers}.
     */
    public final String found;

    Unreadable(Kind kind, String found) {
      super(found, null, false, false); // no stack trace: a verdict, not a bug
      this.kind = kind;
      this.found = found;
    }
  }

  /**
   * An entity tag in the text: an element of a {@code Tags:[...]} list, its decoded
   * {@code value}, and {@code start}, where its characters begin in the text (after the quote of
   * a quoted one).
   */
  public record TagSite(int start, String value) {}

  /**
   * What a parse found: the compounds, where each top-level one starts and ends in the text, and
   * every entity tag inside them, in text order.
   */
  public record Reading(List<Compound> compounds, List<int[]> spans, List<TagSite> tags) {}

  private static final String TAGS = "Tags";

  private static final String PASSENGERS = "Passengers";

  private final String text;
  private int position;
  private final List<TagSite> tags = new ArrayList<>();
  /** Takes each quoted string's raw text (escapes as written) as its closing quote is read. */
  private final Consumer<String> onQuoted;
  /** Takes each passenger compound as it closes (see {@link #forEachPassenger}); null: none. */
  private final Consumer<Compound> onPassenger;

  private Snbt(String text, int start, Consumer<String> onQuoted, Consumer<Compound> onPassenger) {
    this.text = text;
    this.position = start;
    this.onQuoted = onQuoted;
    this.onPassenger = onPassenger;
  }

  /**
   * The compounds of {@code text}: zero or more, separated by commas (spaces around them
   * allowed), as they go inside a summon's {@code Passengers:[...]}.
   *
   * @param text the text
   * @return its compounds
   * @throws Unreadable when it is not that
   */
  public static List<Compound> compounds(String text) {
    return read(text).compounds();
  }

  /**
   * {@link #compounds(String)}, with where each compound and each entity tag sits.
   *
   * @param text the text
   * @return its compounds, their spans and their tags
   * @throws Unreadable when it is not compounds
   */
  public static Reading read(String text) {
    List<Compound> compounds = new ArrayList<>();
    List<int[]> spans = new ArrayList<>();
    List<TagSite> tags = forEachCompound(text, (compound, span) -> {
      compounds.add(compound);
      spans.add(span);
    });
    return new Reading(compounds, spans, tags);
  }

  /**
   * Hands each compound of {@code text} (as {@link #compounds(String)} reads it) to
   * {@code each} as soon as it is parsed, before the next one is read: a check that refuses the
   * first compound names it even when a later one does not parse, as the service's does.
   *
   * @param text the text
   * @param each takes each compound
   * @throws Unreadable when {@code text} is not compounds (after the compounds before the fault)
   */
  public static void forEachCompound(String text, Consumer<Compound> each) {
    forEachCompound(new Snbt(text, 0, null, null), (compound, span) -> each.accept(compound));
  }

  /**
   * Hands each passenger of {@code text} (compounds as {@link #compounds(String)} reads them) to
   * {@code each} as soon as it closes, its own passengers first: a {@code Passengers} list of a
   * passenger (or of a compound inside its {@code id} or {@code Tags}) is read compound by
   * compound, each handed over as it closes, and left empty in the tree. {@code quoted} takes the
   * raw text of every quoted string (escapes as written) as its closing quote is read.
   *
   * @param text the text
   * @param quoted takes each quoted string's raw text
   * @param each takes each passenger as it closes
   * @throws Unreadable when {@code text} is not compounds, or a passenger's {@code Passengers} is
   *     not a list of compounds ({@link Unreadable.Kind#PASSENGERS})
   */
  public static void forEachPassenger(String text, Consumer<String> quoted, Consumer<Compound> each) {
    forEachCompound(new Snbt(text, 0, quoted, each), (compound, span) -> each.accept(compound));
  }

  private interface CompoundAndSpan {
    void accept(Compound compound, int[] span);
  }

  private static List<TagSite> forEachCompound(String text, CompoundAndSpan each) {
    return forEachCompound(new Snbt(text, 0, null, null), each);
  }

  private static List<TagSite> forEachCompound(Snbt parser, CompoundAndSpan each) {
    parser.spaces();
    if (!parser.atEnd()) {
      for (; ; ) {
        int start = parser.position;
        Compound compound = parser.compound(0, true);
        each.accept(compound, new int[] {start, parser.position});
        parser.spaces();
        if (parser.atEnd()) break;
        parser.expect(',');
        parser.spaces();
      }
    }
    return parser.tags;
  }

  /**
   * One compound that starts at {@code start} and runs to the end of {@code text}.
   *
   * @param text the text
   * @param start where the compound's {@code '{'} is
   * @return the compound
   * @throws Unreadable when it is not one compound to the end
   */
  public static Compound compoundToEnd(String text, int start) {
    return readCompoundToEnd(text, start).compounds().get(0);
  }

  /**
   * {@link #compoundToEnd(String, int)}, handing the raw text of every quoted string (escapes as
   * written) to {@code quoted} as its closing quote is read.
   *
   * @param text the text
   * @param start where the compound's {@code '{'} is
   * @param quoted takes each quoted string's raw text
   * @return the compound
   * @throws Unreadable when it is not one compound to the end
   */
  public static Compound compoundToEnd(String text, int start, Consumer<String> quoted) {
    if (start >= text.length() || text.charAt(start) != '{') throw unexpectedAt(text, start);
    Snbt parser = new Snbt(text, start, quoted, null);
    Compound compound = (Compound) parser.value(0, false);
    if (parser.position != text.length()) throw unexpectedAt(text, parser.position);
    return compound;
  }

  /**
   * {@link #compoundToEnd(String, int)}, with where its entity tags sit.
   *
   * @param text the text
   * @param start where the compound's {@code '{'} is
   * @return the compound, its span and its tags
   * @throws Unreadable when it is not one compound to the end
   */
  public static Reading readCompoundToEnd(String text, int start) {
    if (start >= text.length() || text.charAt(start) != '{') throw unexpectedAt(text, start);
    Snbt parser = new Snbt(text, start, null, null);
    Compound compound = (Compound) parser.value(0, false);
    if (parser.position != text.length()) throw unexpectedAt(text, parser.position);
    return new Reading(List.of(compound), List.<int[]>of(new int[] {start, text.length()}), parser.tags);
  }

  /**
   * The refusal for the character at {@code at} (or the end of the text).
   *
   * @param text the text
   * @param at the index of the unexpected character
   * @return the failure naming it
   */
  public static Unreadable unexpectedAt(String text, int at) {
    return new Unreadable(Unreadable.Kind.SYNTAX, characterAt(text, at));
  }

  /**
   * The character at {@code at} as a refusal names it: one code point, or "end of text".
   *
   * @param text the text
   * @param at an index
   * @return the code point there, or {@code end of text}
   */
  public static String characterAt(String text, int at) {
    return at >= text.length() ? "end of text" : new String(Character.toChars(text.codePointAt(at)));
  }

  /**
   * Whether {@code c} may sit in an unquoted word (the game's rule): {@code 0-9 A-Z a-z _ - . +}.
   *
   * @param c a character
   * @return whether it may sit in an unquoted word
   */
  public static boolean isWordChar(char c) {
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

  /**
   * A value; {@code hooked}: a compound in it hands the passengers of its {@code Passengers} to
   * {@link #onPassenger} (the service's check reads those compounds so: a passenger, and
   * compounds inside an {@code id} or {@code Tags}).
   */
  private Object value(int depth, boolean hooked) {
    char c = at(position);
    if (!atEnd() && c == '{') return compound(depth, hooked);
    if (!atEnd() && c == '[') return list(depth, hooked, false);
    if (!atEnd() && (c == '"' || c == '\'')) return quoted();
    return word();
  }

  private Compound compound(int depth, boolean hooked) {
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
        boolean keepsHook = hooked && (name.equals(TAGS) || name.equals("id"));
        if (hooked && onPassenger != null && name.equals(PASSENGERS)) {
          compound.values.add(passengers(depth + 1));
        } else if (name.equals(TAGS) && at(position) == '[' && !atEnd()) {
          compound.values.add(list(depth + 1, keepsHook, true));
        } else {
          compound.values.add(value(depth + 1, keepsHook));
        }
        spaces();
        if (at(position) == '}' && !atEnd()) break;
      }
      // An empty member (",,") is skipped, as the game's parser does.
      expect(',');
    }
    position++;
    return compound;
  }

  /**
   * A passenger's {@code Passengers}, each compound handed to {@link #onPassenger} as it closes;
   * the list is left empty. Anything else than a list of compounds is refused.
   */
  private List<Object> passengers(int depth) {
    if (atEnd() || text.charAt(position) != '[') throw new Unreadable(Unreadable.Kind.PASSENGERS, PASSENGERS);
    enter(depth);
    position++;
    spaces();
    if (!atEnd() && text.charAt(position) == ']') {
      position++;
      return List.of();
    }
    for (; ; ) {
      spaces();
      if (atEnd() || text.charAt(position) != '{') throw new Unreadable(Unreadable.Kind.PASSENGERS, PASSENGERS);
      onPassenger.accept(compound(depth + 1, true));
      spaces();
      if (!atEnd() && text.charAt(position) == ']') {
        position++;
        return List.of();
      }
      expect(',');
    }
  }

  private Object list(int depth, boolean hooked, boolean tagList) {
    enter(depth);
    expect('[');
    if (at(position + 1) == ';' && position + 1 < text.length() && "BIL".indexOf(at(position)) >= 0) {
      position += 2;
      items(depth, true, false, false);
      return TypedArray.INSTANCE;
    }
    return items(depth, false, hooked, tagList);
  }

  /** Items up to and including the closing ']'; a list has no empty elements. */
  private List<Object> items(int depth, boolean wordsOnly, boolean hooked, boolean tagList) {
    List<Object> items = new ArrayList<>();
    spaces();
    if (!atEnd() && text.charAt(position) == ']') {
      position++;
      return items;
    }
    for (; ; ) {
      spaces();
      int start = position;
      Object item = wordsOnly ? word() : value(depth + 1, hooked);
      if (tagList && item instanceof String) {
        char first = text.charAt(start);
        tags.add(new TagSite(first == '"' || first == '\'' ? start + 1 : start, (String) item));
      }
      items.add(item);
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
    int start = position + 1;
    StringBuilder value = new StringBuilder();
    for (int i = start; ; i++) {
      if (i >= text.length()) throw unexpectedAt(text, i);
      char c = text.charAt(i);
      if (c == quote) {
        position = i + 1;
        if (onQuoted != null) onQuoted.accept(text.substring(start, i));
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
    if (depth >= MAX_DEPTH) throw new Unreadable(Unreadable.Kind.DEPTH, String.valueOf(text.charAt(position)));
  }
}
