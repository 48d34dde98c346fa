package dev.exportservice.client.internal.snbt;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The library's one SNBT reader (the game's text form of entity data), with the grammar and the
 * limits of the service's check (src/export-safety/syntax/snbt.ts, rule for rule): nesting to
 * {@link #MAX_DEPTH}, a space around {@code :} and {@code ,} and empty members in a compound
 * accepted (two liberties of real exports), nothing after a value. In quoted strings only
 * {@code \\} and a backslash before the string's own quote are escapes: Minecraft 1.21.4
 * refuses the others and 1.21.5 and later decode them, so they would read differently by
 * version. A quoted string that a plugin's own reader would cut into entities (one of the
 * vocabulary file's {@code readerMarkers}, or brackets that do not balance within it) is
 * refused too.
 *
 * <p>Read whole ({@link #read}), it gives the model room a tree, where each top-level compound
 * sits and where every entity tag ({@code Tags:[...]}) sits: what the model reads is what the
 * check read, never more. The safety room's check extends it: it reads an entity's compound
 * typing every value as it goes (the service's order of faults) and throws its own refusal in
 * place of {@link Unreadable} ({@link #fault}).
 */
public class SnbtReader {
  /** Deepest nesting of compounds and lists accepted: the vocabulary file's {@code maxSnbtDepth}. */
  public static final int MAX_DEPTH = VocabularyFile.integer("limits", "maxSnbtDepth");

  /** What a plugin's own passenger reader takes for an entity's start, in the order checked. */
  private static final List<String> READER_MARKERS = VocabularyFile.strings("readerMarkers");

  /** A compound member that holds entity tags. */
  protected static final String TAGS = "Tags";

  /** A list of unquoted words, spaces allowed around them and the commas: {@code [0f, 1.5f,-2f]}. */
  private static final Pattern WORD_LIST = Pattern.compile("\\[ *[0-9A-Za-z_\\-.+]+(?: *, *[0-9A-Za-z_\\-.+]+)* *\\]");

  /** Why a text is not SNBT as the check reads it; the names are the check's reasons. */
  public enum Fault {
    /** An unexpected character. */
    SYNTAX,
    /** Nesting deeper than {@link #MAX_DEPTH}. */
    DEPTH,
    /** An escape other than {@code \\} and the string's own quote. */
    ESCAPE,
    /** A quoted string that a plugin's own reader would cut into entities. */
    READER
  }

  /** Why a text is not SNBT as the check reads it ({@link #read}). */
  public static final class Unreadable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What is wrong. */
    public final Fault fault;
    /**
     * What was found: the unexpected character (one code point, or {@code end of text}), the
     * character where nesting went too deep, the escape, or the reader's marker or bracket.
     */
    public final String found;

    Unreadable(Fault fault, String found) {
      super(fault + ": " + found, null, false, false); // no stack trace: a verdict, not a bug
      this.fault = fault;
      this.found = found;
    }
  }

  /**
   * An entity tag in the text: an element of a {@code Tags:[...]} list, its decoded
   * {@code value}, and {@code start}, where its characters begin in the text (after the quote of
   * a quoted one).
   *
   * @param start where its characters begin
   * @param value its decoded value
   */
  public record TagSite(int start, String value) {}

  /**
   * What a reading found: the compounds, where each top-level one starts and ends in the text,
   * and every entity tag inside them, in text order.
   *
   * @param compounds the compounds, read whole
   * @param spans {@code {start, end}} of each
   * @param tags the entity tags in them
   */
  public record Reading(List<SnbtValue.Compound> compounds, List<int[]> spans, List<TagSite> tags) {}

  /** The text read. */
  protected final String text;
  /** Where the reader stands in {@link #text}. */
  protected int position;
  /** Where the tags of a whole reading go; null: not asked for (the check). */
  private final List<TagSite> tagSites;
  private Matcher wordList;

  /**
   * A reader of {@code text} standing at {@code start}.
   *
   * @param text the text
   * @param start where it stands
   */
  protected SnbtReader(String text, int start) {
    this(text, start, null);
  }

  private SnbtReader(String text, int start, List<TagSite> tagSites) {
    this.text = text;
    this.position = start;
    this.tagSites = tagSites;
  }

  /**
   * The compounds of {@code text}, read whole: zero or more, separated by commas (spaces around
   * them allowed), as they go inside a summon's {@code Passengers:[...]}; with where each
   * compound and each entity tag sits.
   *
   * @param text the text
   * @return its compounds, their spans and their tags
   * @throws Unreadable when it is not that
   */
  public static Reading read(String text) {
    SnbtReader reader = new SnbtReader(text, 0, new ArrayList<>());
    List<SnbtValue.Compound> compounds = new ArrayList<>();
    List<int[]> spans = new ArrayList<>();
    reader.spaces();
    if (!reader.atEnd()) {
      for (; ; ) {
        int start = reader.position;
        compounds.add(reader.compound(0, true));
        spans.add(new int[] {start, reader.position});
        reader.spaces();
        if (reader.atEnd()) break;
        reader.expect(',');
        reader.spaces();
      }
    }
    return new Reading(compounds, spans, reader.tagSites);
  }

  /**
   * One compound, read whole, that starts at {@code start} and runs to the end of {@code text},
   * with where its entity tags sit.
   *
   * @param text the text
   * @param start where the compound's {@code '{'} is
   * @return the compound, its span and its tags
   * @throws Unreadable when it is not one compound to the end
   */
  public static Reading readCompoundToEnd(String text, int start) {
    SnbtReader reader = new SnbtReader(text, start, new ArrayList<>());
    if (reader.at(start) != '{') throw reader.fault(Fault.SYNTAX, characterAt(text, start));
    SnbtValue.Compound compound = reader.compound(0, true);
    if (!reader.atEnd()) throw reader.fault(Fault.SYNTAX, characterAt(text, reader.position));
    return new Reading(List.of(compound), List.<int[]>of(new int[] {start, text.length()}), reader.tagSites);
  }

  /**
   * The character at {@code at} as a refusal names it: one code point, or {@code end of text}.
   *
   * @param text the text
   * @param at an index
   * @return the code point there, or {@code end of text}
   */
  public static String characterAt(String text, int at) {
    return at >= text.length() ? "end of text" : new String(Character.toChars(text.codePointAt(at)));
  }

  /**
   * What this reader throws for a fault; the check throws its own refusal.
   *
   * @param fault what is wrong
   * @param found what was found
   * @return the exception to throw
   */
  protected RuntimeException fault(Fault fault, String found) {
    return new Unreadable(fault, found);
  }

  /**
   * The {@code syntax} fault for the character at {@code at} (or the end of the text).
   *
   * @param at an index into the text
   * @return the exception to throw
   */
  protected final RuntimeException unexpectedAt(int at) {
    return fault(Fault.SYNTAX, characterAt(text, at));
  }

  /** Whether a UTF-16 unit may sit in an unquoted word (the game's rule). */
  private static boolean isWordUnit(int unit) {
    return (unit >= '0' && unit <= '9')
        || (unit >= 'A' && unit <= 'Z')
        || (unit >= 'a' && unit <= 'z')
        || unit == '_'
        || unit == '-'
        || unit == '.'
        || unit == '+';
  }

  /**
   * Whether the reader stands at the end of the text.
   *
   * @return whether it does
   */
  protected final boolean atEnd() {
    return position >= text.length();
  }

  /**
   * The unit at {@code index}, or -1 past the end (JavaScript's {@code undefined}).
   *
   * @param index an index into the text
   * @return the unit there, or -1
   */
  protected final int at(int index) {
    return index < text.length() ? text.charAt(index) : -1;
  }

  /** Steps over spaces (U+0020 only). */
  protected final void spaces() {
    while (at(position) == ' ') position++;
  }

  /**
   * Steps over {@code c}, or throws the {@code syntax} fault.
   *
   * @param c the character that must stand here
   */
  protected final void expect(char c) {
    if (at(position) != c) throw unexpectedAt(position);
    position++;
  }

  /**
   * One value. {@code whole}: a compound in it keeps every member (a tree); otherwise it is an
   * entity's compound, as {@link #member} reads it.
   *
   * @param depth how deep it sits
   * @param whole whether its compounds are kept whole
   * @return the value
   */
  protected final SnbtValue value(int depth, boolean whole) {
    int c = at(position);
    if (c == '{') return compound(depth, whole);
    if (c == '[') return list(depth, whole);
    if (c == '"' || c == '\'') return new SnbtValue.Text(quoted(), true);
    return new SnbtValue.Text(word(), false);
  }

  /**
   * Reads a value to its end, building nothing.
   *
   * @param depth how deep it sits
   */
  protected final void skipValue(int depth) {
    int c = at(position);
    if (c == '"' || c == '\'') {
      skipQuoted();
      return;
    }
    if (c != '{' && c != '[') {
      word();
      return;
    }
    enter(depth);
    if (c == '[') {
      // A list of one or more words (a transformation, a rotation): one match, the same grammar.
      if (wordList == null) wordList = WORD_LIST.matcher(text);
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
        else word();
        spaces();
        expect(':');
        spaces();
      }
      if (typed) word();
      else skipValue(depth + 1);
      spaces();
      if (at(position) == close) break;
      expect(',');
      // A list has no empty elements: a value must follow its comma.
      if (isList) {
        spaces();
        if (at(position) == close) throw unexpectedAt(position);
      }
    }
    position++;
  }

  /**
   * A compound, each member's value read by {@link #member}.
   *
   * @param depth how deep it sits
   * @param whole whether it is kept whole
   * @return the compound
   */
  protected SnbtValue.Compound compound(int depth, boolean whole) {
    enter(depth);
    expect('{');
    List<Map.Entry<String, SnbtValue>> members = new ArrayList<>();
    for (; ; ) {
      spaces();
      int c = at(position);
      if (c == '}') break;
      if (c != ',') {
        String name = c == '"' || c == '\'' ? quoted() : word();
        spaces();
        expect(':');
        spaces();
        members.add(new AbstractMap.SimpleImmutableEntry<>(name, member(name, depth, whole)));
        spaces();
        if (at(position) == '}') break;
      }
      // An empty member (`,,`) is skipped, as the game's parser does.
      expect(',');
    }
    position++;
    return new SnbtValue.Compound(members);
  }

  /**
   * The value of the member {@code name} of a compound at {@code depth}. Here: the value read
   * whole ({@code Tags}' strings noted where they sit, when a reading asks for them); the check
   * reads an entity's members otherwise.
   *
   * @param name the member's name
   * @param depth how deep its compound sits
   * @param whole whether its compound is kept whole
   * @return its value
   */
  protected SnbtValue member(String name, int depth, boolean whole) {
    if (tagSites == null || !name.equals(TAGS) || at(position) != '[' || isTypedArray()) return value(depth + 1, true);
    int listDepth = depth + 1;
    enter(listDepth);
    position++;
    return new SnbtValue.ListOf(
        items(
            () -> {
              int start = position;
              SnbtValue item = value(listDepth + 1, true);
              if (item instanceof SnbtValue.Text tag) {
                tagSites.add(new TagSite(tag.quoted() ? start + 1 : start, tag.value()));
              }
              return item;
            }));
  }

  /** Whether the {@code [} here opens a typed array ({@code [B;}, {@code [I;}, {@code [L;}). */
  private boolean isTypedArray() {
    int first = at(position + 1);
    return at(position + 2) == ';' && (first == 'B' || first == 'I' || first == 'L');
  }

  private SnbtValue list(int depth, boolean whole) {
    enter(depth);
    expect('[');
    int first = at(position);
    if (at(position + 1) == ';' && (first == 'B' || first == 'I' || first == 'L')) {
      position += 2;
      items(() -> new SnbtValue.Text(word(), false));
      return new SnbtValue.Array();
    }
    return new SnbtValue.ListOf(items(() -> value(depth + 1, whole)));
  }

  /**
   * Items up to and including the closing {@code ]} (the reader stands just after the {@code [}).
   *
   * @param item reads one item
   * @return the items
   */
  protected final List<SnbtValue> items(Supplier<SnbtValue> item) {
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

  /**
   * A quoted string's value, after the reader rule on its raw text.
   *
   * @return its decoded value
   */
  protected final String quoted() {
    int quote = text.charAt(position);
    int start = position + 1;
    StringBuilder value = new StringBuilder();
    int from = start;
    for (int i = from; ; i++) {
      if (i >= text.length()) throw unexpectedAt(i);
      char unit = text.charAt(i);
      if (unit == quote) {
        position = i + 1;
        checkReaderSafe(text.substring(start, i));
        return value.append(text, from, i).toString();
      }
      if (unit == '\\') {
        checkEscape(i, quote);
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
        checkReaderSafe(text.substring(start, i));
        return;
      }
      if (unit == '\\') {
        checkEscape(i, quote);
        i++;
      }
    }
    throw unexpectedAt(text.length());
  }

  /**
   * An unquoted word.
   *
   * @return the word
   */
  protected final String word() {
    int start = position;
    int i = start;
    while (i < text.length() && isWordUnit(text.charAt(i))) i++;
    if (i == start) throw unexpectedAt(start);
    position = i;
    return text.substring(start, i);
  }

  /**
   * Throws the {@code depth} fault when a compound or list at {@code depth} is too deep.
   *
   * @param depth how deep it sits
   */
  protected final void enter(int depth) {
    if (depth >= MAX_DEPTH) throw fault(Fault.DEPTH, String.valueOf(text.charAt(position)));
  }

  /**
   * Throws unless the backslash at {@code at} of a string quoted with {@code quote} escapes a
   * backslash or that quote: the only escapes Minecraft 1.21.4 and 1.21.5+ read alike
   * ({@code escape}, found the backslash and the character after it).
   */
  private void checkEscape(int at, int quote) {
    if (at + 1 >= text.length()) throw unexpectedAt(at + 1);
    char next = text.charAt(at + 1);
    if (next == '\\' || next == quote) return;
    throw fault(Fault.ESCAPE, "\\" + new String(Character.toChars(text.codePointAt(at + 1))));
  }

  /**
   * Throws the {@code reader} fault unless the raw text of a quoted string (between its quotes,
   * escapes as written) holds none of the reader markers (in their order; found: the marker)
   * and its brackets balance (found: the first that does not fit, or the innermost left open).
   * Some plugins cut a passenger string with a regular expression blind to quotes
   * (docs/export-safety.md, "Readers"), so a quoted string must read the same to them.
   */
  private void checkReaderSafe(String raw) {
    for (String marker : READER_MARKERS) {
      if (raw.contains(marker)) throw fault(Fault.READER, marker);
    }
    StringBuilder open = new StringBuilder();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '{' || c == '[') {
        open.append(c);
      } else if (c == '}' || c == ']') {
        int last = open.length() - 1;
        if (last < 0 || open.charAt(last) != (c == '}' ? '{' : '[')) throw fault(Fault.READER, String.valueOf(c));
        open.setLength(last);
      }
    }
    if (open.length() > 0) throw fault(Fault.READER, String.valueOf(open.charAt(open.length() - 1)));
  }
}
