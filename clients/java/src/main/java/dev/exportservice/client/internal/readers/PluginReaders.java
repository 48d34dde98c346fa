package dev.exportservice.client.internal.readers;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public plugins' own readers of an export, as docs/export-safety.md ("Readers this check
 * holds for") tables them, written again as code that the check runs (src/export-safety/readers/,
 * rule for rule): an export is refused ({@code reader}, naming the reader) unless each of them
 * reads exactly the entities and commands the game reads.
 */
public final class PluginReaders {
  /** An entity a reader hands to the game: the type it summons, the compound it gives. */
  public record ReaderEntity(String type, String compound) {}

  /** A compound as the grammar reads it: where it stands in its string, and its display type. */
  public record GrammarCompound(int start, int end, String type) {}

  private static final List<String> NAMES = VocabularyFile.strings("readers");
  /** The readers' names, as a {@code reader} refusal's {@code found} gives them. */
  public static final String SUPER_BLOCKS_DISPLAYS = NAMES.get(0);

  public static final String SANSCRAFT_BDE = NAMES.get(1);
  public static final String DISPLAY_ENTITY_UTILS = NAMES.get(2);

  /** Where SuperBlocksDisplays cuts a passenger string. */
  private static final Pattern SPLIT = Pattern.compile("(?<=\\}),(?=\\{id:\"minecraft:)");
  /** What SPLIT cuts in the middle of. */
  private static final String CUT = "},{id:\"minecraft:";
  /**
   * Where it reads a piece's type (else it summons an item display, which the game reads as the
   * grammar does: a display entity).
   */
  private static final Pattern TYPE = Pattern.compile("\\{id:\"minecraft:([^\"]+)\"");

  private static final String NESTED = "Passengers:[";
  private static final String NESTED_LOWER = "passengers:[";
  private static final Pattern TYPE_NAMED = Pattern.compile("id:\"(?:minecraft:)?([^\"]*)\"");

  /** What DisplayEntityUtils replaces by its own position before it dispatches a command. */
  private static final String POSITIONED = "summon block_display ~-0.5 ~-0.5 ~-0.5";

  private PluginReaders() {}


  /**
   * Whether SuperBlocksDisplays reads {@code text} as the grammar does, whose top-level compounds
   * are {@code compounds}: it cuts exactly between them, and each piece begins by naming the type
   * the grammar reads. Reads the cuts in place, without making the pieces.
   */
  public static boolean readsAsSuperBlocksDisplays(String text, List<GrammarCompound> compounds) {
    // No compound: it summons one item display of what is not a compound, which the game refuses.
    if (compounds.isEmpty()) return !SPLIT.matcher(text).find();
    if (compounds.get(0).start() != 0 || compounds.get(compounds.size() - 1).end() != text.length()) return false;
    // The cuts of SPLIT, found with indexOf: each is the `,` of a `},{id:"minecraft:`.
    int index = 0;
    for (int at = text.indexOf(CUT); at >= 0; at = text.indexOf(CUT, at + 2)) {
      if (index + 1 >= compounds.size()) return false;
      GrammarCompound previous = compounds.get(index);
      GrammarCompound next = compounds.get(index + 1);
      if (previous.end() != at + 1 || next.start() != at + 2) return false;
      index++;
    }
    if (index != compounds.size() - 1) return false;
    // The grammar read a quoted id there, so the name ends within the compound.
    Matcher typeAt = TYPE.matcher(text);
    for (GrammarCompound compound : compounds) {
      typeAt.region(compound.start(), text.length());
      if (!typeAt.lookingAt() || !typeAt.group(1).equals(compound.type())) return false;
    }
    return true;
  }


  /**
   * Whether DisplayEntityUtils dispatches {@code command} as the check read it: it changes
   * nothing (the vocabulary's commands never summon a block display, so the text can only stand
   * inside one of their strings, which the replacement would change).
   */
  public static boolean readsAsDisplayEntityUtils(String command) {
    return !command.contains(POSITIONED);
  }

  /**
   * Whether the plugin's pieces of {@code text} ({@link #splitObjects}) are the compounds that
   * stand in it, joined by bare commas from the first character to the last, as
   * SuperBlocksDisplays' reading already required: the same walk as {@code splitObjects}, its
   * cuts compared in place, nothing made.
   */
  public static boolean cutsBetween(String text, List<GrammarCompound> compounds) {
    int[] cut = {0};
    boolean walked =
        forEachCut(
            text,
            comma -> {
              // Each cut must be the comma right after a compound but the last.
              if (cut[0] >= compounds.size() - 1 || compounds.get(cut[0]).end() != comma) return false;
              cut[0]++;
              return true;
            });
    return walked && cut[0] == compounds.size() - 1;
  }

  /**
   * The plugin's walk over a passenger string: hands {@code cut} each comma outside quotes and
   * brackets (a quote closes unless an odd number of backslashes stands before it); stops at the
   * first it refuses and answers whether it took every one.
   */
  private static boolean forEachCut(String text, IntPredicate cut) {
    int depth = 0;
    boolean inQuotes = false;
    char quote = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (inQuotes) {
        if (c == quote) {
          int escapes = 0;
          for (int j = i - 1; j >= 0 && text.charAt(j) == '\\'; j--) escapes++;
          if (escapes % 2 == 0) inQuotes = false;
        }
      } else if (c == '"' || c == '\'') {
        inQuotes = true;
        quote = c;
      } else if (c == '{' || c == '[') {
        depth++;
      } else if (c == '}' || c == ']') {
        depth--;
      } else if (c == ',' && depth == 0 && !cut.test(i)) {
        return false;
      }
    }
    return true;
  }

  /** Whether {@code text} holds what sanscraft-bde takes for a passenger list (else it reads pieces). */
  public static boolean mayNest(String text) {
    return text.contains(NESTED) || text.contains(NESTED_LOWER);
  }

  /**
   * SansCraft-Network/sanscraft-bde: the entities it summons from a passenger string, parents
   * first. It splits at the commas outside quotes and brackets, then flattens each piece's
   * passengers: the first {@code Passengers:[} (else {@code passengers:[}) by text, blind to
   * quotes, its list to the matching {@code ]} and its compounds by counting braces, both blind
   * to quotes; each part is one entity, of the type its compound names. The plugin searches each
   * piece again at every level of nesting; this reading gives the same entities in one pass:
   * each piece and nested compound is a range of the string, and the blind counting is read from
   * one table of matches.
   */
  public static List<ReaderEntity> sansCraft(String passengers) {
    NestedReading reading = new NestedReading(passengers);
    List<ReaderEntity> flat = new ArrayList<>();
    for (int[] piece : splitObjects(passengers)) reading.collect(piece[0], piece[1], flat);
    return flat;
  }

  /** The type a compound's text names (its first {@code id:"..."}, namespace dropped). */
  private static String typeNamed(String compound) {
    Matcher named = TYPE_NAMED.matcher(compound);
    return named.find() ? named.group(1) : "unknown";
  }

  /**
   * The plugin's pieces of a passenger string, as ranges {@code [start, end)} of it: trimmed,
   * without one pair of outer brackets, split at commas outside quotes and brackets.
   */
  private static List<int[]> splitObjects(String snbt) {
    List<int[]> list = new ArrayList<>();
    int[] range = trimmed(snbt, 0, snbt.length());
    if (range[0] == range[1]) return list;
    if (snbt.charAt(range[0]) == '[' && snbt.charAt(range[1] - 1) == ']') {
      range = trimmed(snbt, range[0] + 1, range[1] - 1);
    }
    int from = range[0];
    int to = range[1];
    String text = snbt.substring(from, to);
    int[] start = {from};
    forEachCut(
        text,
        comma -> {
          int[] part = trimmed(snbt, start[0], from + comma);
          if (part[0] < part[1]) list.add(part);
          start[0] = from + comma + 1;
          return true;
        });
    int[] last = trimmed(snbt, start[0], to);
    if (last[0] < last[1]) list.add(last);
    return list;
  }

  /** {@code [from, to)} of {@code text} without the white space JavaScript's trim cuts. */
  private static int[] trimmed(String text, int from, int to) {
    while (from < to && isJsSpace(text.charAt(from))) from++;
    while (to > from && isJsSpace(text.charAt(to - 1))) to--;
    return new int[] {from, to};
  }

  /**
   * The plugin's flattening of a passenger string's pieces, each piece and nested compound a
   * range of the string. Its counting is blind to quotes and starts at an opening bracket (or
   * brace), so within any range that holds the opening one it ends where the same count over the
   * whole string ends: {@code matches} holds, for every {@code [} and {@code {}, the index of its
   * match counted that way (brackets and braces each on their own), or -1.
   */
  private static final class NestedReading {
    private final String text;
    private final BlindMatches matches;
    private final int[] upper;
    private final int[] lower;

    NestedReading(String text) {
      this.text = text;
      this.matches = new BlindMatches(text);
      this.upper = occurrences(text, NESTED);
      this.lower = occurrences(text, NESTED_LOWER);
    }

    void collect(int start, int end, List<ReaderEntity> flat) {
      int[] list = passengersList(start, end);
      if (list == null) {
        flat.add(entity(text.substring(start, end)));
        return;
      }
      int at = list[0];
      int close = list[1];
      flat.add(entity(withoutList(start, end, at, close)));
      // A `{` at depth 0 opens a compound, which ends at its match; a `}` at depth 0 takes the
      // depth below 0, where no `{` opens one until it is back at 0.
      int depth = 0;
      for (int i = at + NESTED.length(); i < close; i++) {
        char c = text.charAt(i);
        if (c == '{') {
          if (depth == 0) {
            int match = matches.of(i);
            if (match < 0 || match >= close) return;
            collect(i, match + 1, flat);
            i = match;
            continue;
          }
          depth++;
        } else if (c == '}') {
          depth--;
        }
      }
    }

    private int[] passengersList(int start, int end) {
      int at = firstWithin(upper, start, end);
      if (at < 0) at = firstWithin(lower, start, end);
      if (at < 0) return null;
      int close = matches.of(at + NESTED.length() - 1);
      return close >= 0 && close < end ? new int[] {at, close} : null;
    }

    private String withoutList(int start, int end, int at, int close) {
      int[] p = trimmed(text, start, at);
      int[] q = trimmed(text, close + 1, end);
      String prefix = text.substring(p[0], p[1]);
      String suffix = text.substring(q[0], q[1]);
      if (prefix.endsWith(",") && suffix.startsWith(",")) return prefix + suffix.substring(1);
      if (prefix.endsWith(",")) {
        return suffix.startsWith("}") ? prefix.substring(0, prefix.length() - 1) + suffix : prefix + suffix;
      }
      if (suffix.startsWith(",")) return prefix + suffix.substring(1);
      return prefix + suffix;
    }
  }

  private static ReaderEntity entity(String compound) {
    return new ReaderEntity(typeNamed(compound), compound);
  }

  /**
   * For every {@code [} and {@code {} of a text, the index where a count starting at it, blind to
   * quotes and to the other kind, first comes back to 0; -1 when none does. Kept for the opening
   * characters only, so that its size follows the brackets a text holds, not its length.
   */
  private static final class BlindMatches {
    private final int[] opens;
    private final int[] matches;

    BlindMatches(String text) {
      int count = 0;
      for (int i = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '[' || c == '{') count++;
      }
      opens = new int[count];
      matches = new int[count];
      java.util.Arrays.fill(matches, -1);
      int[] brackets = new int[count];
      int[] braces = new int[count];
      int bracketDepth = 0;
      int braceDepth = 0;
      for (int i = 0, open = 0; i < text.length(); i++) {
        char c = text.charAt(i);
        if (c == '[') {
          brackets[bracketDepth++] = open;
          opens[open++] = i;
        } else if (c == '{') {
          braces[braceDepth++] = open;
          opens[open++] = i;
        } else if (c == ']') {
          if (bracketDepth > 0) matches[brackets[--bracketDepth]] = i;
        } else if (c == '}') {
          if (braceDepth > 0) matches[braces[--braceDepth]] = i;
        }
      }
    }

    int of(int at) {
      int found = java.util.Arrays.binarySearch(opens, at);
      return found >= 0 ? matches[found] : -1;
    }
  }

  private static int[] occurrences(String text, String marker) {
    List<Integer> found = new ArrayList<>();
    for (int at = text.indexOf(marker); at >= 0; at = text.indexOf(marker, at + marker.length())) found.add(at);
    return found.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The first of the ordered {@code places} at which the marker stands whole within the range. */
  private static int firstWithin(int[] places, int start, int end) {
    int low = 0;
    int high = places.length;
    while (low < high) {
      int middle = (low + high) >>> 1;
      if (places[middle] < start) low = middle + 1;
      else high = middle;
    }
    return low < places.length && places[low] + NESTED.length() <= end ? places[low] : -1;
  }

  /**
   * JavaScript's {@code trim()}: its white space and line terminators cut at both ends, so that
   * this port reads pieces exactly as the service's model of the reader does.
   */
  private static String jsTrim(String text) {
    int start = 0;
    int end = text.length();
    while (start < end && isJsSpace(text.charAt(start))) start++;
    while (end > start && isJsSpace(text.charAt(end - 1))) end--;
    return text.substring(start, end);
  }

  private static boolean isJsSpace(char c) {
    return (c >= 0x09 && c <= 0x0D)
        || c == 0x20
        || c == 0xA0
        || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A)
        || c == 0x2028
        || c == 0x2029
        || c == 0x202F
        || c == 0x205F
        || c == 0x3000
        || c == 0xFEFF;
  }
}
