package dev.exportservice.client.internal.safety;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The public plugins' own ways of cutting a passenger string, as docs/export-safety.md ("Readers
 * this check holds for") describes them: each returns the entities (SNBT compounds, as the game
 * would summon them) that the plugin would hand to the game. The check runs them and refuses an
 * export they read otherwise than the game does.
 */
final class PluginReaders {
  /** An entity a reader hands to the game: the type it summons, the compound it gives. */
  record ReaderEntity(String type, String compound) {}

  private static final Pattern SUPER_BLOCKS_SPLIT = Pattern.compile("(?<=\\}),(?=\\{id:\"minecraft:)");
  private static final Pattern SUPER_BLOCKS_TYPE = Pattern.compile("^\\{id:\"minecraft:([^\"]+)\"");

  private PluginReaders() {}

  /**
   * Scrulius/SuperBlocksDisplays: splits each passenger string at
   * {@code (?<=\}),(?=\{id:"minecraft:)} (blind to quotes), takes the type from
   * {@code ^\{id:"minecraft:([^"]+)"} (else {@code item_display}) and summons that type with the
   * piece.
   */
  static List<ReaderEntity> superBlocksDisplays(String passengers) {
    List<ReaderEntity> found = new ArrayList<>();
    // JavaScript's split keeps trailing empty pieces; Java's drops them unless the limit is negative.
    for (String piece : SUPER_BLOCKS_SPLIT.split(passengers, -1)) {
      Matcher type = SUPER_BLOCKS_TYPE.matcher(piece);
      found.add(new ReaderEntity(type.find() ? type.group(1) : "item_display", piece));
    }
    return found;
  }

  /**
   * SansCraft-Network/sanscraft-bde: splits at the commas outside quotes and brackets, then
   * flattens each piece's passengers: the first {@code Passengers:[} (else {@code passengers:[})
   * by text, blind to quotes, its list to the matching {@code ]} and its compounds by counting
   * braces, both blind to quotes; each part is one entity.
   */
  static List<ReaderEntity> sansCraft(String passengers) {
    List<String> flat = new ArrayList<>();
    for (String piece : splitObjects(passengers)) collectAllPassengers(piece, flat);
    List<ReaderEntity> found = new ArrayList<>();
    for (String compound : flat) found.add(new ReaderEntity("block_display", compound));
    return found;
  }

  private static List<String> splitObjects(String snbt) {
    List<String> list = new ArrayList<>();
    String text = jsTrim(snbt);
    if (text.isEmpty()) return list;
    if (text.startsWith("[") && text.endsWith("]")) text = jsTrim(text.substring(1, text.length() - 1));
    int depth = 0;
    int start = 0;
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
      } else if (c == ',' && depth == 0) {
        String part = jsTrim(text.substring(start, i));
        if (!part.isEmpty()) list.add(part);
        start = i + 1;
      }
    }
    String last = jsTrim(text.substring(start));
    if (!last.isEmpty()) list.add(last);
    return list;
  }

  /** {@code [where the member starts, start of the list's content, index of its closing ]]}, or null. */
  private static int[] passengersList(String snbt) {
    int at = snbt.indexOf("Passengers:[");
    if (at < 0) at = snbt.indexOf("passengers:[");
    if (at < 0) return null;
    int start = at + "Passengers:[".length();
    int depth = 1;
    for (int i = start; i < snbt.length(); i++) {
      char c = snbt.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']' && --depth == 0) {
        return new int[] {at, start, i};
      }
    }
    return null;
  }

  private static List<String> parsePassengers(String snbt) {
    int[] found = passengersList(snbt);
    List<String> list = new ArrayList<>();
    if (found == null) return list;
    String content = snbt.substring(found[1], found[2]);
    int depth = 0;
    int start = -1;
    for (int i = 0; i < content.length(); i++) {
      char c = content.charAt(i);
      if (c == '{') {
        if (depth == 0) start = i;
        depth++;
      } else if (c == '}') {
        depth--;
        if (depth == 0 && start != -1) {
          list.add(content.substring(start, i + 1));
          start = -1;
        }
      }
    }
    return list;
  }

  private static String removePassengersTag(String snbt) {
    int[] found = passengersList(snbt);
    if (found == null) return snbt;
    String prefix = jsTrim(snbt.substring(0, found[0]));
    String suffix = jsTrim(snbt.substring(found[2] + 1));
    if (prefix.endsWith(",") && suffix.startsWith(",")) return prefix + suffix.substring(1);
    if (prefix.endsWith(",")) {
      return suffix.startsWith("}") ? prefix.substring(0, prefix.length() - 1) + suffix : prefix + suffix;
    }
    if (suffix.startsWith(",")) return prefix + suffix.substring(1);
    return prefix + suffix;
  }

  private static void collectAllPassengers(String snbt, List<String> flat) {
    flat.add(removePassengersTag(snbt));
    for (String child : parsePassengers(snbt)) collectAllPassengers(child, flat);
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
