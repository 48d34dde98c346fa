package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The display-model vocabulary as data (docs/export-safety.md), for the checks of the entities a
 * model is made of ({@code Entities}): its parts (display entities, in {@code passengers} and
 * their nested {@code Passengers}) and its hitboxes (interactions). Entity keys follow the game's
 * documentation of display entities and interactions for Minecraft Java Edition 1.21.4, the
 * version the editor exports for, as the service's vocabulary does. An entity may set only its
 * type's keys, and each value is of the type the game's codec reads at that key
 * ({@link ValueType}, checked while the SNBT is read: {@code CheckedSnbt}).
 *
 * <p>Every table here is read from the service's one vocabulary file (src/export-safety/types/vocabulary.json,
 * which the jar carries: {@link VocabularyFile}); there is no Java copy of its words.
 */
public final class Vocabulary {
  /** The game's own limit on a command's length, in UTF-16 code units (a command block's). */
  public static final int MAX_COMMAND_CHARS = limit("maxCommandChars");

  /** Longest member name (UTF-16 code units) in a checked object: an animation's, a frame's. */
  public static final int MAX_NAME_CHARS = limit("maxNameChars");

  /**
   * Longest text (a text display's {@code text}, a {@code CustomName}, an item's name or lore
   * line) in UTF-16 code units: a quoted one as decoded, one written as SNBT as written.
   */
  public static final int MAX_TEXT_CHARS = limit("maxTextChars");

  /**
   * Most bytes of passenger strings ({@code passengers} and {@code Passengers} together), as the
   * document spells them between their quotes.
   */
  public static final int MAX_PASSENGER_BYTES = limit("maxPassengerBytes");

  /** Most distinct tags a model's parts may carry. */
  public static final int MAX_OWN_TAGS = limit("maxOwnTags");

  /** Longest {@code found} of a refusal, in UTF-16 code units; a longer one is cut. */
  public static final int MAX_FOUND_CHARS = limit("maxFoundChars");

  /** Longest path a refusal's message repeats (the path itself stays whole). */
  public static final int MAX_MESSAGE_PATH_CHARS = limit("maxMessagePathChars");

  /** The tag placeholder of the published form; a fetched export holds the caller's tag there. */
  public static final String PLACEHOLDER = VocabularyFile.string("placeholder");

  /**
   * What a placeholder may add to a text when fetched: the longest tag a caller may ask for
   * ({@code maxTagChars}) less the placeholder's own length. Lengths are counted with it, so that
   * an export accepted as published is accepted as fetched with any tag.
   */
  static final int PLACEHOLDER_GROWTH = limit("maxTagChars") - PLACEHOLDER.length();

  /** The namespace an entity or sound id may leave out. */
  static final String DEFAULT_NAMESPACE = VocabularyFile.string("defaultNamespace");

  /** The entity a hitbox summons: the one entity whose place is {@code hitbox}. */
  public static final String HITBOX_TYPE = hitboxType();

  /** The member names the check reads: of the root, of {@code content}, of {@code datapack}. */
  public static final List<String> ROOT_NAMES = VocabularyFile.strings("names", "root");

  public static final List<String> CONTENT_NAMES = VocabularyFile.strings("names", "content");
  public static final List<String> DATAPACK_NAMES = VocabularyFile.strings("names", "datapack");

  /** How a member of {@code content} that no plugin runs is typed (the file's {@code members}). */
  public record MemberRule(String json, Pattern pattern, double min, double max, boolean only) {}

  /** The members of {@code content} read as data, not run: each one's JSON type and bounds. */
  public static final Map<String, MemberRule> MEMBER_RULES = memberRules();
  /** Bounds of the plain data a {@code data} member holds. */
  public static final int DATA_MAX_DEPTH = VocabularyFile.integer("data", "maxDepth");
  public static final int DATA_MAX_STRING_CHARS = VocabularyFile.integer("data", "maxStringChars");

  private static Map<String, MemberRule> memberRules() {
    Map<String, MemberRule> rules = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : ((Map<?, ?>) VocabularyFile.at("members")).entrySet()) {
      Map<?, ?> rule = (Map<?, ?>) entry.getValue();
      String json = (String) rule.get("json");
      Object pattern = rule.get("pattern");
      Object min = rule.get("min");
      Object max = rule.get("max");
      Object only = rule.get("only");
      rules.put(
          (String) entry.getKey(),
          new MemberRule(
              json,
              pattern == null ? null : Pattern.compile("(?:" + pattern + ")"),
              min == null ? 0 : ((Number) min).doubleValue(),
              max == null ? 0 : ((Number) max).doubleValue(),
              Boolean.TRUE.equals(only)));
    }
    return Map.copyOf(rules);
  }

  /**
   * The keys each part type may set through {@code data merge entity} (and in a summon), in the
   * file's order. {@code Passengers} is not among them: only a passenger compound may carry
   * passengers.
   */
  static final Map<String, List<String>> PART_KEYS = partKeys();

  /** {@link #PART_KEYS} as sets, for the checks of an entity's keys. */
  public static final Map<String, Set<String>> PART_KEY_SETS = keySets();

  /** Keys a passenger compound may set besides its type's: its id and its own passengers. */
  public static final List<String> PASSENGER_KEYS = VocabularyFile.strings("passengerKeys");

  /** The commands of a frame and of a hitbox. */
  static final List<String> FRAME_COMMANDS = VocabularyFile.strings("commands", "frame");

  static final List<String> HITBOX_COMMANDS = VocabularyFile.strings("commands", "hitbox");

  /** The sound sources of {@code playsound} (the game's sound categories). */
  public static final List<String> SOUND_SOURCES = VocabularyFile.strings("soundSources");

  /** The arguments a {@code data merge entity} target may use. */
  static final List<String> SELECTOR_ARGUMENTS = VocabularyFile.strings("selectorArguments");

  /** Values of the selector argument {@code sort}. */
  public static final List<String> SELECTOR_SORTS = VocabularyFile.strings("selectorSorts");

  /** JSON text components that read the world when the game resolves them. */
  public static final List<String> WORLD_READING_KINDS = VocabularyFile.strings("text", "worldReadingKinds");

  /** The members of a text component that act when a player clicks it (run, suggest, open). */
  public static final List<String> CLICK_KINDS = VocabularyFile.strings("text", "clickKinds");

  /** The members a text may not hold anywhere: world-reading kinds, then click events. */
  public static final Set<String> REFUSED_TEXT_MEMBERS = refusedTextMembers();

  /**
   * Code points a reader does not see (format characters, a BOM, fillers, variation selectors),
   * as inclusive ranges.
   */
  static final int[][] INVISIBLE = invisible();

  public static final Pattern NUMBER = pattern("number");
  public static final Pattern COORDINATE = pattern("coordinate");
  public static final Pattern SOUND_ID = pattern("soundId");
  public static final Pattern HITBOX_COORDINATE = pattern("hitboxCoordinate");
  /** The loudest a frame's playsound may be: its volume, and its minimum volume. */
  public static final double MAX_SOUND_VOLUME = ((Number) VocabularyFile.at("sound", "maxVolume")).doubleValue();
  public static final double MAX_SOUND_MIN_VOLUME = ((Number) VocabularyFile.at("sound", "maxMinVolume")).doubleValue();
  public static final Pattern PLAYSOUND_TARGETS = pattern("playsoundTargets");
  public static final Pattern DISTANCE = pattern("distance");
  public static final Pattern LIMIT = pattern("limit");

  private static Set<String> refusedTextMembers() {
    Set<String> members = new java.util.HashSet<>(WORLD_READING_KINDS);
    members.addAll(CLICK_KINDS);
    return Set.copyOf(members);
  }

  private Vocabulary() {}

  /** What the placeholders in {@code text} may add to it when fetched ({@link #PLACEHOLDER_GROWTH} each). */
  public static long placeholderGrowth(String text) {
    long growth = 0;
    for (int at = text.indexOf(PLACEHOLDER); at >= 0; at = text.indexOf(PLACEHOLDER, at + 1)) growth += PLACEHOLDER_GROWTH;
    return growth;
  }

  /**
   * The length of {@code text} counting each placeholder as the longest tag it may become, as far
   * as {@code limit} is concerned: a text too short for any placeholder to bring it over
   * {@code limit} is not searched.
   */
  public static int fetchedLength(String text, int limit) {
    // Each placeholder grows at most (16 + growth) / 16 times: a shorter text stays in bounds.
    if (text.length() * (1 + (double) PLACEHOLDER_GROWTH / PLACEHOLDER.length()) <= limit) return text.length();
    return (int) (text.length() + placeholderGrowth(text));
  }

  private static int limit(String name) {
    return VocabularyFile.integer("limits", name);
  }

  /** A pattern of the file's {@code patterns}: JavaScript syntax that reads the same in Java. */
  private static Pattern pattern(String name) {
    return Pattern.compile(VocabularyFile.string("patterns", name));
  }

  private static Map<String, List<String>> partKeys() {
    Map<String, List<String>> keys = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entity : VocabularyFile.object("entities").entrySet()) {
      String type = (String) entity.getKey();
      keys.put(type, VocabularyFile.strings("entities", type, "keys"));
    }
    return Collections.unmodifiableMap(keys);
  }

  private static Map<String, Set<String>> keySets() {
    Map<String, Set<String>> sets = new HashMap<>();
    PART_KEYS.forEach((type, keys) -> sets.put(type, Set.copyOf(keys)));
    return Map.copyOf(sets);
  }

  private static String hitboxType() {
    String found = null;
    for (Map.Entry<?, ?> entity : VocabularyFile.object("entities").entrySet()) {
      if (!VocabularyFile.string("entities", (String) entity.getKey(), "place").equals("hitbox")) continue;
      if (found != null) throw new IllegalStateException("two entities whose place is hitbox");
      found = (String) entity.getKey();
    }
    if (found == null) throw new IllegalStateException("no entity whose place is hitbox");
    return found;
  }

  private static int[][] invisible() {
    List<?> ranges = (List<?>) VocabularyFile.at("invisible");
    int[][] found = new int[ranges.size()][];
    for (int i = 0; i < found.length; i++) {
      List<String> range = VocabularyFile.strings(ranges.get(i), "invisible");
      found[i] = new int[] {Integer.parseInt(range.get(0), 16), Integer.parseInt(range.get(1), 16)};
    }
    return found;
  }

  /** The part type an entity id names (namespace optional), or null when it names none. */
  public static String partTypeOf(String id) {
    String name = id.startsWith(DEFAULT_NAMESPACE) ? id.substring(DEFAULT_NAMESPACE.length()) : id;
    return PART_KEYS.containsKey(name) ? name : null;
  }

  /** Whether the code point {@code code} is one a reader does not see. */
  public static boolean isInvisible(int code) {
    for (int[] range : INVISIBLE) if (code >= range[0] && code <= range[1]) return true;
    return false;
  }

  /** {@code name} without the code points a reader does not see. */
  public static String visiblePart(String name) {
    StringBuilder visible = new StringBuilder(name.length());
    name.codePoints().filter(code -> !isInvisible(code)).forEach(visible::appendCodePoint);
    return visible.toString();
  }
}
