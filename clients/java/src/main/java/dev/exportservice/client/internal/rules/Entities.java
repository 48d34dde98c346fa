package dev.exportservice.client.internal.rules;

import dev.exportservice.client.internal.snbt.SnbtValue;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.Vocabulary;
import java.util.Map;
import java.util.Set;

/**
 * The checks of the entities a model is made of: a passenger compound (a display entity with its
 * type's keys) and the data a command sets on a part, against the vocabulary's keys per type
 * ({@code Vocabulary}).
 */
public final class Entities {
  private static final Set<String> PASSENGER_KEY_SET = Set.copyOf(Vocabulary.PASSENGER_KEYS);
  private static final String TAGS = "Tags";

  private Entities() {}

  /**
   * Checks a passenger compound once it closed (its own passengers were checked as they closed,
   * {@code CheckedSnbt}): a display entity with its type's keys; each value was checked against
   * its key's type as it was read. Adds its tags to {@code ownTags}; returns its type.
   */
  public static String checkPassenger(SnbtValue.Compound compound, Set<String> ownTags) {
    String type = displayTypeOf(compound);
    for (Map.Entry<String, SnbtValue> member : compound.members()) {
      String name = member.getKey();
      SnbtValue value = member.getValue();
      if (name.equals("Passengers")) {
        if (!(value instanceof SnbtValue.ListOf list)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
        for (SnbtValue passenger : list.items()) {
          if (!(passenger instanceof SnbtValue.Compound nested)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
          checkPassenger(nested, ownTags);
        }
      } else if (!PASSENGER_KEY_SET.contains(name)) {
        checkKey(type, name, value, ownTags);
      }
    }
    return type;
  }

  /**
   * Checks the data a command sets on a part of type {@code type} (a {@code data merge} or a
   * summon's compound): its type's keys only. Adds its tags to {@code ownTags} when given.
   */
  static void checkPartData(String type, SnbtValue.Compound compound, Set<String> ownTags) {
    for (Map.Entry<String, SnbtValue> member : compound.members()) {
      checkKey(type, member.getKey(), member.getValue(), ownTags);
    }
  }

  private static void checkKey(String type, String name, SnbtValue value, Set<String> ownTags) {
    if (!Vocabulary.PART_KEY_SETS.get(type).contains(name)) throw new UnsafeContent(UnsafeContent.Reason.KEY, name);
    if (name.equals(TAGS) && ownTags != null && value instanceof SnbtValue.ListOf list) {
      for (SnbtValue tag : list.items()) {
        if (!(tag instanceof SnbtValue.Text text)) continue;
        ownTags.add(text.value());
        if (ownTags.size() > Vocabulary.MAX_OWN_TAGS) throw new UnsafeContent(UnsafeContent.Reason.COUNT, "tags");
      }
    }
  }

  /** The display type of a passenger: every {@code id} it writes must name a display entity. */
  private static String displayTypeOf(SnbtValue.Compound compound) {
    String type = null;
    for (Map.Entry<String, SnbtValue> member : compound.members()) {
      if (!member.getKey().equals("id")) continue;
      String id = member.getValue() instanceof SnbtValue.Text text ? text.value() : "(not a name)";
      String named = Vocabulary.partTypeOf(id);
      if (named == null || named.equals(Vocabulary.HITBOX_TYPE)) throw new UnsafeContent(UnsafeContent.Reason.ENTITY, id);
      // The game keeps the last of repeated keys; every one of them was checked.
      type = named;
    }
    if (type == null) throw new UnsafeContent(UnsafeContent.Reason.ENTITY, "no id");
    return type;
  }
}
