package dev.exportservice.client.internal.safety;

import dev.exportservice.client.internal.snbt.Snbt;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The display-model vocabulary as data (docs/export-safety.md), and the checks of the entities a
 * model is made of: its parts (display entities, in {@code passengers} and their nested
 * {@code Passengers}) and its hitboxes (interactions). Entity keys follow the game's
 * documentation of display entities and interactions for Minecraft Java Edition 1.21.4, the
 * version the editor exports for, as the service's vocabulary does. An entity may set only its
 * type's keys; the values are not restricted (an item's own contents are rendered, never run),
 * except {@code id}, {@code Passengers} and {@code Tags}, which the check reads, and JSON text,
 * which may not read the world ({@link JsonText}).
 *
 * <p>The service keeps the same vocabulary in one data file (src/export-safety/vocabulary.json);
 * this client's tests compare every table here with it, word for word.
 */
final class Vocabulary {
  /** The game's own limit on a command's length, in UTF-16 code units (a command block's). */
  static final int MAX_COMMAND_CHARS = 32_500;

  /** Longest member name (UTF-16 code units) in a checked object: an animation's, a frame's. */
  static final int MAX_NAME_CHARS = 256;

  /**
   * Most bytes of passenger strings ({@code passengers} and {@code Passengers} together), as the
   * document spells them between their quotes: the largest real export has 62,293 for 80
   * displays, so this holds some 2,700 displays.
   */
  static final int MAX_PASSENGER_BYTES = 2_097_152;

  /** Most distinct tags a model's parts may carry (the largest real model carries 136). */
  static final int MAX_OWN_TAGS = 10_000;

  /** Longest {@code found} of a refusal, in UTF-16 code units; a longer one is cut. */
  static final int MAX_FOUND_CHARS = 100;

  /** Longest path a refusal's message repeats (the path itself stays whole). */
  static final int MAX_MESSAGE_PATH_CHARS = 1000;

  /** The tag placeholder of the published form; a fetched export holds the caller's tag there. */
  static final String PLACEHOLDER = "[MODELSERVERTAG]";

  /** The namespace an entity or sound id may leave out. */
  static final String DEFAULT_NAMESPACE = "minecraft:";

  /** The entity a hitbox summons. */
  static final String HITBOX_TYPE = "interaction";

  /** The member names the check reads: of the root, of {@code content}, of {@code datapack}. */
  static final List<String> ROOT_NAMES = List.of("content");

  static final List<String> CONTENT_NAMES = List.of("passengers", "Passengers", "hitbox", "commands", "datapack");
  static final List<String> DATAPACK_NAMES = List.of("anim_keyframes", "sound_keyframes");

  /** Keys every part may set: generic entity data that changes how it looks, never what it runs. */
  static final List<String> COMMON_KEYS =
      List.of("Tags", "Rotation", "Glowing", "CustomName", "CustomNameVisible", "Silent", "NoGravity", "Invulnerable");

  /** Keys of every display entity (block, item and text). */
  static final List<String> DISPLAY_KEYS =
      List.of(
          "transformation", "billboard", "brightness", "glow_color_override", "view_range",
          "shadow_radius", "shadow_strength", "width", "height", "interpolation_duration",
          "start_interpolation", "teleport_duration");

  /**
   * The keys each part type may set through {@code data merge entity} (and in a summon), in the
   * data file's order. {@code Passengers} is not among them: only a passenger compound may carry
   * passengers.
   */
  static final Map<String, List<String>> PART_KEYS =
      Map.of(
          "block_display", keys(true, "block_state"),
          "item_display", keys(true, "item", "item_display"),
          "text_display",
              keys(true, "text", "alignment", "background", "default_background", "line_width", "see_through", "shadow", "text_opacity"),
          "interaction", keys(false, "width", "height", "response"));

  private static final Map<String, Set<String>> PART_KEY_SETS =
      Map.of(
          "block_display", Set.copyOf(PART_KEYS.get("block_display")),
          "item_display", Set.copyOf(PART_KEYS.get("item_display")),
          "text_display", Set.copyOf(PART_KEYS.get("text_display")),
          "interaction", Set.copyOf(PART_KEYS.get("interaction")));

  /** Keys a passenger compound may set besides its type's: its id and its own passengers. */
  static final List<String> PASSENGER_KEYS = List.of("id", "Passengers");

  /** The commands of a frame and of a hitbox. */
  static final List<String> FRAME_COMMANDS = List.of("data merge entity", "playsound");

  static final List<String> HITBOX_COMMANDS = List.of("summon");

  /** The sound sources of {@code playsound} (the game's sound categories). */
  static final List<String> SOUND_SOURCES =
      List.of("master", "music", "record", "weather", "block", "hostile", "neutral", "player", "ambient", "voice");

  /** The arguments a {@code data merge entity} target may use. */
  static final List<String> SELECTOR_ARGUMENTS = List.of("type", "tag", "distance", "limit", "sort");

  /** Values of the selector argument {@code sort}. */
  static final List<String> SELECTOR_SORTS = List.of("nearest", "furthest", "random", "arbitrary");

  /** The word patterns of commands, by name, each matching a whole word. */
  static final Map<String, String> PATTERNS =
      Map.of(
          "number", "-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)",
          "coordinate", "(?:[~^](?:-?(?:\\d+(?:\\.\\d*)?|\\.\\d+))?|-?(?:\\d+(?:\\.\\d*)?|\\.\\d+))",
          "soundId", "(?:[a-z0-9_.-]+:)?[a-z0-9_./-]+",
          "playsoundTargets", "@a(?:\\[[^\\]]*\\])?",
          "distance", "(?:\\d+(?:\\.\\d*)?|\\.\\d+)?(?:\\.\\.)?(?:\\d+(?:\\.\\d*)?|\\.\\d+)?",
          "limit", "\\d+");

  /** Entity keys whose value is JSON text: a text display's {@code text}, any part's {@code CustomName}. */
  static final List<String> TEXT_KEYS = List.of("text", "CustomName");

  /** Members of an item (at any depth inside {@code item}) whose value is JSON text or a list of it. */
  static final List<String> ITEM_TEXT_KEYS =
      List.of(
          "custom_name", "minecraft:custom_name", "item_name", "minecraft:item_name", "lore",
          "minecraft:lore", "Name", "Lore");

  /** JSON text components that read the world when the game resolves them. */
  static final List<String> WORLD_READING_KINDS = List.of("selector", "nbt", "score");

  /** What a plugin's own passenger reader takes for an entity's start, in the order checked. */
  static final List<String> READER_MARKERS = List.of("{id:", "{\"id\":", "Passengers:", "passengers:");

  /**
   * Code points a reader does not see (format characters, a BOM, fillers, variation selectors),
   * as inclusive ranges.
   */
  static final int[][] INVISIBLE = {
    {0x00AD, 0x00AD}, {0x034F, 0x034F}, {0x0600, 0x0605}, {0x061C, 0x061C}, {0x06DD, 0x06DD},
    {0x070F, 0x070F}, {0x0890, 0x0891}, {0x08E2, 0x08E2}, {0x115F, 0x1160}, {0x17B4, 0x17B5},
    {0x180B, 0x180F}, {0x200B, 0x200F}, {0x202A, 0x202E}, {0x2060, 0x206F}, {0x3164, 0x3164},
    {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF}, {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFB}, {0x110BD, 0x110BD},
    {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF}
  };

  static final Pattern NUMBER = Pattern.compile(PATTERNS.get("number"));
  static final Pattern COORDINATE = Pattern.compile(PATTERNS.get("coordinate"));
  static final Pattern SOUND_ID = Pattern.compile(PATTERNS.get("soundId"));
  static final Pattern PLAYSOUND_TARGETS = Pattern.compile(PATTERNS.get("playsoundTargets"));
  static final Pattern DISTANCE = Pattern.compile(PATTERNS.get("distance"));
  static final Pattern LIMIT = Pattern.compile(PATTERNS.get("limit"));

  private static final Set<String> PASSENGER_KEY_SET = Set.copyOf(PASSENGER_KEYS);
  private static final Set<String> TEXT_KEY_SET = Set.copyOf(TEXT_KEYS);
  private static final String TAGS = "Tags";
  private static final String ITEM = "item";

  private Vocabulary() {}

  private static List<String> keys(boolean display, String... own) {
    List<String> keys = new ArrayList<>(COMMON_KEYS);
    if (display) keys.addAll(DISPLAY_KEYS);
    keys.addAll(List.of(own));
    return List.copyOf(keys);
  }

  /** The part type an entity id names (namespace optional), or null when it names none. */
  static String partTypeOf(String id) {
    String name = id.startsWith(DEFAULT_NAMESPACE) ? id.substring(DEFAULT_NAMESPACE.length()) : id;
    return PART_KEYS.containsKey(name) ? name : null;
  }

  /** Whether the code point {@code code} is one a reader does not see. */
  static boolean isInvisible(int code) {
    for (int[] range : INVISIBLE) if (code >= range[0] && code <= range[1]) return true;
    return false;
  }

  /** {@code name} without the code points a reader does not see. */
  static String visiblePart(String name) {
    StringBuilder visible = new StringBuilder(name.length());
    name.codePoints().filter(code -> !isInvisible(code)).forEach(visible::appendCodePoint);
    return visible.toString();
  }

  /**
   * Checks a passenger compound once it closed (its own passengers were checked as they closed,
   * {@link Snbt#forEachPassenger}): a display entity with its type's keys. Adds its tags to
   * {@code ownTags}.
   */
  static void checkPassenger(Snbt.Compound compound, Set<String> ownTags) {
    String type = displayTypeOf(compound);
    for (int i = 0; i < compound.size(); i++) {
      String name = compound.name(i);
      Object value = compound.value(i);
      if (name.equals("Passengers")) {
        if (!(value instanceof List)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
        for (Object passenger : (List<?>) value) {
          if (!(passenger instanceof Snbt.Compound)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
          checkPassenger((Snbt.Compound) passenger, ownTags);
        }
      } else if (!PASSENGER_KEY_SET.contains(name)) {
        checkKey(type, name, value, ownTags);
      }
    }
  }

  /**
   * Checks the data a command sets on a part of type {@code type} (a {@code data merge} or a
   * summon's compound): its type's keys only. Adds its tags to {@code ownTags} when given.
   */
  static void checkPartData(String type, Snbt.Compound compound, Set<String> ownTags) {
    for (int i = 0; i < compound.size(); i++) {
      checkKey(type, compound.name(i), compound.value(i), ownTags);
    }
  }

  private static void checkKey(String type, String name, Object value, Set<String> ownTags) {
    if (!PART_KEY_SETS.get(type).contains(name)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
    if (TEXT_KEY_SET.contains(name)) {
      JsonText.check(value);
    } else if (name.equals(ITEM)) {
      JsonText.checkItem(value);
    } else if (name.equals(TAGS) && ownTags != null && value instanceof List) {
      for (Object tag : (List<?>) value) {
        if (!(tag instanceof String)) continue;
        ownTags.add((String) tag);
        if (ownTags.size() > MAX_OWN_TAGS) throw new UnsafeContent(UnsafeContent.Reason.COUNT, "tags");
      }
    }
  }

  /** The display type of a passenger: every {@code id} it writes must name a display entity. */
  private static String displayTypeOf(Snbt.Compound compound) {
    String type = null;
    for (int i = 0; i < compound.size(); i++) {
      if (!compound.name(i).equals("id")) continue;
      Object value = compound.value(i);
      String id = value instanceof String ? (String) value : "(not a name)";
      String named = partTypeOf(id);
      if (named == null || named.equals(HITBOX_TYPE)) throw new UnsafeContent(UnsafeContent.Reason.ENTITY, id);
      // The game keeps the last of repeated keys; every one of them was checked.
      type = named;
    }
    if (type == null) throw new UnsafeContent(UnsafeContent.Reason.ENTITY, "no id");
    return type;
  }
}
