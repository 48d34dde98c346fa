package dev.exportservice.client.internal.safety;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.exportservice.client.internal.snbt.Snbt;

/**
 * The display-model vocabulary as data (docs/export-safety.md), and the checks of the entities a
 * model is made of: its parts (display entities, in {@code passengers} and their nested
 * {@code Passengers}) and its hitboxes (interactions). Entity keys follow the game's
 * documentation of display entities and interactions for Minecraft Java Edition 1.21.4, the
 * version the editor exports for, as the service's vocabulary does. An entity may set only its
 * type's keys; the values are not restricted (an item's own contents are rendered, never run),
 * except {@code id}, {@code Passengers} and {@code Tags}, which the check reads.
 */
final class Vocabulary {
  /** The game's own limit on a command's length, in UTF-16 code units (a command block's). */
  static final int MAX_COMMAND_CHARS = 32_500;

  /** The namespace an entity or sound id may leave out. */
  static final String DEFAULT_NAMESPACE = "minecraft:";

  /** The entity a hitbox summons. */
  static final String HITBOX_TYPE = "interaction";

  /** Keys every part may set: generic entity data that changes how it looks, never what it runs. */
  private static final List<String> COMMON_KEYS =
      List.of("Tags", "Rotation", "Glowing", "CustomName", "CustomNameVisible", "Silent", "NoGravity", "Invulnerable");

  /** Keys of every display entity (block, item and text). */
  private static final List<String> DISPLAY_KEYS =
      List.of(
          "transformation", "billboard", "brightness", "glow_color_override", "view_range",
          "shadow_radius", "shadow_strength", "width", "height", "interpolation_duration",
          "start_interpolation", "teleport_duration");

  /**
   * The keys each part type may set through {@code data merge entity} (and in a summon).
   * {@code Passengers} is not among them: only a passenger compound may carry passengers.
   */
  static final Map<String, Set<String>> PART_KEYS =
      Map.of(
          "block_display", keys(true, "block_state"),
          "item_display", keys(true, "item", "item_display"),
          "text_display",
              keys(true, "text", "alignment", "background", "default_background", "line_width", "see_through", "shadow", "text_opacity"),
          "interaction", keys(false, "width", "height", "response"));

  /** Keys a passenger compound may set besides its type's: its id and its own passengers. */
  private static final Set<String> PASSENGER_KEYS = Set.of("id", "Passengers");

  /** The sound sources of {@code playsound} (the game's sound categories). */
  static final Set<String> SOUND_SOURCES =
      Set.of("master", "music", "record", "weather", "block", "hostile", "neutral", "player", "ambient", "voice");

  /** Selector arguments a {@code data merge entity} target may use beside {@code type} and {@code tag}. */
  static final Set<String> SELECTOR_EXTRA_ARGUMENTS = Set.of("distance", "limit", "sort");

  /** Values of the selector argument {@code sort}. */
  static final Set<String> SELECTOR_SORTS = Set.of("nearest", "furthest", "random", "arbitrary");

  private Vocabulary() {}

  private static Set<String> keys(boolean display, String... own) {
    Set<String> keys = new HashSet<>(COMMON_KEYS);
    if (display) keys.addAll(DISPLAY_KEYS);
    keys.addAll(List.of(own));
    return Set.copyOf(keys);
  }

  /** The part type an entity id names (namespace optional), or null when it names none. */
  static String partTypeOf(String id) {
    String name = id.startsWith(DEFAULT_NAMESPACE) ? id.substring(DEFAULT_NAMESPACE.length()) : id;
    return PART_KEYS.containsKey(name) ? name : null;
  }

  /**
   * Checks a passenger compound: a display entity with its type's keys, whose own passengers
   * are display entities too. Adds the tags of every part to {@code ownTags}.
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
      } else if (!PASSENGER_KEYS.contains(name)) {
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
    if (!PART_KEYS.get(type).contains(name)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
    if (name.equals("Tags") && ownTags != null && value instanceof List) {
      for (Object tag : (List<?>) value) if (tag instanceof String) ownTags.add((String) tag);
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
