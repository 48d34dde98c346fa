package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A value type of the vocabulary file ({@code types}, {@code keyTypes}), its references resolved:
 * what the game's codec reads at a key. Compiled once per game version's era from the file
 * ({@link TypeSet}), as the TypeScript check compiles it (src/export-safety/types/types.ts); docs/export-safety.md, "The vocabulary file", says
 * what each kind accepts. One class for every kind (its fields filled for that kind), so that a
 * recursive type (text inside text) is one object referring to itself.
 */
public final class ValueType {
  /** The kinds of the file's grammar. */
  public enum Kind {
    NUMBER, BOOLEAN, STRING, ENUM, LIST, ARRAY, COMPOUND, ONE_OF, TEXT, NONE
  }

  /** The shape of an SNBT (or JSON) value, which picks a {@code oneOf} alternative. */
  public enum Shape {
    COMPOUND, LIST, ARRAY, QUOTED, WORD
  }

  /** The integer range a suffix allows: {@code b} a byte, {@code s} a short, none an int. */
  private static final Map<String, double[]> SUFFIX_RANGES =
      Map.of(
          "", new double[] {-2147483648d, 2147483647d},
          "b", new double[] {-128, 127},
          "B", new double[] {-128, 127},
          "s", new double[] {-32768, 32767},
          "S", new double[] {-32768, 32767});

  private static final Set<String> BOOLEAN_WORDS = Set.of("true", "false", "0b", "0B", "-0b", "-0B", "1b", "1B");

  public Kind kind;
  // number
  boolean integer;
  Set<String> suffixes;
  Double min;
  Double max;
  Pattern numberPattern;
  // string
  public Pattern pattern;
  public boolean placeholder;
  /** What an unquoted word must match whole to be this string ({@code true}, {@code false} never, in any case); null: quoted only. */
  Pattern words;
  // enum
  public Set<String> values;
  // list, array, text
  public ValueType of;
  public Integer length;
  public String prefix;
  // compound
  Map<String, ValueType> members;
  ValueType others;
  String namespace;
  /** {@code component} or {@code type}: the reason for a member not listed. */
  public String unknown;
  // oneOf
  List<ValueType> alternatives;

  private ValueType() {}

  /** A type whose fields {@link TypeSet} fills in place, so that recursive types resolve. */
  static ValueType empty() {
    return new ValueType();
  }

  void copy(ValueType other) {
    kind = other.kind;
    integer = other.integer;
    suffixes = other.suffixes;
    min = other.min;
    max = other.max;
    numberPattern = other.numberPattern;
    pattern = other.pattern;
    placeholder = other.placeholder;
    words = other.words;
    values = other.values;
    of = other.of;
    length = other.length;
    prefix = other.prefix;
    members = other.members;
    others = other.others;
    namespace = other.namespace;
    unknown = other.unknown;
    alternatives = other.alternatives;
  }

  static ValueType compile(Map<?, ?> raw, ValueType type, TypeSet set) {
    String kind = (String) raw.get("kind");
    Object length = raw.get("length");
    type.length = length instanceof Number ? ((Number) length).intValue() : null;
    switch (kind) {
      case "number":
        type.kind = Kind.NUMBER;
        List<String> suffixes = VocabularyFile.strings(raw.get("suffixes"), "suffixes");
        type.integer = Boolean.TRUE.equals(raw.get("integer"));
        type.suffixes = Set.copyOf(suffixes);
        type.min = raw.get("min") instanceof Number ? ((Number) raw.get("min")).doubleValue() : null;
        type.max = raw.get("max") instanceof Number ? ((Number) raw.get("max")).doubleValue() : null;
        List<String> quoted = new ArrayList<>();
        List<String> withExponent = new ArrayList<>();
        for (String suffix : suffixes) {
          quoted.add(Pattern.quote(suffix));
          if (!suffix.isEmpty()) withExponent.add(Pattern.quote(suffix));
        }
        String alternatives = String.join("|", quoted);
        // An exponent only before a suffix: 1.21.4 reads `1e5` as a string, 1.21.5 as a double. A
        // point may end the digits (`0.f`, `1.`): both read it as a number of the same type.
        type.numberPattern =
            Pattern.compile(
                type.integer
                    ? "-?(?:0|[1-9][0-9]*)(" + alternatives + ")"
                    : "-?(?:0|[1-9][0-9]*)(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+(?:" + String.join("|", withExponent) + ")|(?:" + alternatives + "))");
        return type;
      case "boolean":
        type.kind = Kind.BOOLEAN;
        return type;
      case "string":
        type.kind = Kind.STRING;
        type.pattern = raw.get("pattern") instanceof String ? Pattern.compile("(?:" + raw.get("pattern") + ")") : null;
        type.placeholder = "prefix".equals(raw.get("placeholder"));
        type.words = raw.get("words") instanceof String ? Pattern.compile("(?:" + raw.get("words") + ")") : null;
        return type;
      case "enum":
        type.kind = Kind.ENUM;
        type.values = Set.copyOf(VocabularyFile.strings(raw.get("values"), "values"));
        return type;
      case "list":
        type.kind = Kind.LIST;
        type.of = set.typeOf(raw.get("of"));
        return type;
      case "array":
        type.kind = Kind.ARRAY;
        type.prefix = (String) raw.get("prefix");
        type.of = set.typeOf(raw.get("of"));
        return type;
      case "compound":
        type.kind = Kind.COMPOUND;
        Map<String, ValueType> members = new LinkedHashMap<>();
        Object rawMembers = raw.get("members");
        if (rawMembers instanceof Map) {
          for (Map.Entry<?, ?> member : ((Map<?, ?>) rawMembers).entrySet()) {
            members.put((String) member.getKey(), set.typeOf(member.getValue()));
          }
        }
        type.members = members;
        type.others = raw.containsKey("others") ? set.typeOf(raw.get("others")) : null;
        type.namespace = raw.get("namespace") instanceof String ? (String) raw.get("namespace") : null;
        type.unknown = "component".equals(raw.get("unknown")) ? "component" : "type";
        return type;
      case "oneOf":
        type.kind = Kind.ONE_OF;
        List<ValueType> of = new ArrayList<>();
        for (Object alternative : (List<?>) raw.get("of")) of.add(set.typeOf(alternative));
        type.alternatives = of;
        return type;
      case "text":
        type.kind = Kind.TEXT;
        type.of = set.typeOf(raw.get("of"));
        return type;
      case "none":
        type.kind = Kind.NONE;
        return type;
      default:
        throw new IllegalStateException(VocabularyFile.RESOURCE + ": no type kind \"" + kind + "\"");
    }
  }

  /** Whether a type reads a value of {@code shape} (docs: {@code oneOf}). */
  boolean acceptsShape(Shape shape) {
    switch (kind) {
      case COMPOUND:
        return shape == Shape.COMPOUND;
      case LIST:
        return shape == Shape.LIST;
      case ARRAY:
        return shape == Shape.ARRAY;
      case STRING:
        return shape == Shape.QUOTED || (shape == Shape.WORD && words != null);
      case TEXT:
        return shape == Shape.QUOTED || shape == Shape.COMPOUND || shape == Shape.LIST;
      case ENUM:
        return shape == Shape.QUOTED || shape == Shape.WORD;
      case NUMBER:
      case BOOLEAN:
        return shape == Shape.WORD;
      case NONE:
        return false;
      default:
        for (ValueType alternative : alternatives) if (alternative.acceptsShape(shape)) return true;
        return false;
    }
  }

  /**
   * The alternative that reads a value of {@code shape} (itself when not a {@code oneOf}; the
   * first that accepts the shape, nested ones resolved the same way), or null when none does.
   */
  public ValueType pick(Shape shape) {
    if (kind != Kind.ONE_OF) return acceptsShape(shape) ? this : null;
    for (ValueType alternative : alternatives) if (alternative.acceptsShape(shape)) return alternative.pick(shape);
    return null;
  }

  /** Whether {@code word} is a number of this type, range included. */
  public boolean isNumberWord(String word) {
    Matcher match = numberPattern.matcher(word);
    if (!match.matches()) return false;
    if (!integer) {
      if (min == null && max == null) return true;
      // A decimal's range: its value with its `f` or `d` suffix dropped.
      char last = word.charAt(word.length() - 1);
      boolean suffixed = last == 'f' || last == 'F' || last == 'd' || last == 'D';
      double value = Double.parseDouble(suffixed ? word.substring(0, word.length() - 1) : word);
      return (min == null || value >= min) && (max == null || value <= max);
    }
    String suffix = match.group(1);
    double value = Double.parseDouble(word.substring(0, word.length() - suffix.length()));
    double[] range = SUFFIX_RANGES.getOrDefault(suffix, new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY});
    if (value < range[0] || value > range[1]) return false;
    return (min == null || value >= min) && (max == null || value <= max);
  }

  /** Whether {@code word}, unquoted, is this string type ({@code words}). */
  public boolean isStringWord(String word) {
    // 1.21.5 reads `true` and `false` in any case as bytes, 1.21.4 only in lower case.
    return words != null && !word.equalsIgnoreCase("true") && !word.equalsIgnoreCase("false") && words.matcher(word).matches();
  }

  /** Whether {@code word} is a boolean: {@code true}, {@code false}, or a byte of 0 or 1. */
  public static boolean isBooleanWord(String word) {
    return BOOLEAN_WORDS.contains(word);
  }

  /**
   * The type of member {@code name} of a compound of this type, or null when it has none: a name
   * without {@code :} looked up with the namespace in front, when the type has one.
   */
  public ValueType memberType(String name) {
    String key = namespace != null && name.indexOf(':') < 0 ? namespace + name : name;
    ValueType member = members.get(key);
    return member != null ? member : others;
  }
}
