package dev.exportservice.client.internal.safety;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.snbt.Snbt;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * JSON text that does not read the world. The game resolves a text component of the kinds
 * {@code selector}, {@code nbt} and {@code score} against the world, with the permissions of
 * whoever runs the summon or {@code data merge} (the console): a model could show players'
 * names, positions and inventories. So in every JSON text the check meets (a text display's
 * {@code text}, any part's {@code CustomName}, an item's names and lore), those components are
 * refused; plain text, {@code translate}, {@code keybind} and styling stay.
 */
final class JsonText {
  private static final Set<String> KINDS = Set.copyOf(Vocabulary.WORLD_READING_KINDS);
  private static final Set<String> ITEM_TEXT_KEYS = Set.copyOf(Vocabulary.ITEM_TEXT_KEYS);

  private JsonText() {}

  /**
   * Throws when the JSON text {@code value} reads the world. A list is read item by item, in
   * order; each string (JSON text) or SNBT compound is one text: a string holding '{' or '[' that
   * is not strict JSON is {@code text} {@code not JSON}; JSON nested deeper than the SNBT depth
   * limit is {@code depth} ({@code found} '[' when an array is too deep, else '{'); then, when the
   * text holds components of several kinds, {@code found} is the first of the world-reading kinds
   * ({@code selector}, {@code nbt}, {@code score}) it holds, wherever they stand, so that the
   * order a reader walks keys in never changes the verdict.
   */
  static void check(Object value) {
    if (value instanceof List) {
      for (Object item : (List<?>) value) check(item);
      return;
    }
    Set<String> found = new HashSet<>();
    if (value instanceof Snbt.Compound) {
      collectSnbt(value, found);
    } else if (value instanceof String) {
      String text = (String) value;
      if (text.indexOf('{') < 0 && text.indexOf('[') < 0) return;
      Object parsed;
      try {
        parsed = JsonReader.parse(text);
      } catch (IllegalArgumentException notJson) {
        throw new UnsafeContent(UnsafeContent.Reason.TEXT, "not JSON");
      }
      boolean[] tooDeep = collectJson(parsed, found);
      if (tooDeep[0]) throw new UnsafeContent(UnsafeContent.Reason.DEPTH, "[");
      if (tooDeep[1]) throw new UnsafeContent(UnsafeContent.Reason.DEPTH, "{");
    } else {
      return;
    }
    for (String kind : Vocabulary.WORLD_READING_KINDS) {
      if (found.contains(kind)) throw new UnsafeContent(UnsafeContent.Reason.TEXT, kind);
    }
  }

  /** The texts of an item, at any depth inside it: its names and lore. */
  static void checkItem(Object item) {
    if (item instanceof List) {
      for (Object value : (List<?>) item) checkItem(value);
    } else if (item instanceof Snbt.Compound) {
      Snbt.Compound compound = (Snbt.Compound) item;
      for (int i = 0; i < compound.size(); i++) {
        if (ITEM_TEXT_KEYS.contains(compound.name(i))) check(compound.value(i));
        else checkItem(compound.value(i));
      }
    }
  }

  /** Adds the world-reading kinds named anywhere in an SNBT text to {@code found}. */
  private static void collectSnbt(Object value, Set<String> found) {
    if (value instanceof List) {
      for (Object item : (List<?>) value) collectSnbt(item, found);
    } else if (value instanceof Snbt.Compound) {
      Snbt.Compound compound = (Snbt.Compound) value;
      for (int i = 0; i < compound.size(); i++) {
        if (KINDS.contains(compound.name(i))) found.add(compound.name(i));
        collectSnbt(compound.value(i), found);
      }
    }
  }

  /**
   * Adds the world-reading kinds named anywhere in parsed JSON to {@code found}, to the depth
   * limit; returns whether an array, and whether an object, sat past it (not read further). A
   * loop with a stack of its own.
   */
  private static boolean[] collectJson(Object root, Set<String> found) {
    boolean[] tooDeep = {false, false};
    Deque<Object[]> stack = new ArrayDeque<>();
    stack.push(new Object[] {root, 0});
    while (!stack.isEmpty()) {
      Object[] next = stack.pop();
      Object value = next[0];
      int depth = (Integer) next[1];
      if (!(value instanceof List) && !(value instanceof Map)) continue;
      if (depth >= Snbt.MAX_DEPTH) {
        tooDeep[value instanceof List ? 0 : 1] = true;
        continue;
      }
      if (value instanceof List) {
        for (Object item : (List<?>) value) stack.push(new Object[] {item, depth + 1});
      } else {
        for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
          if (KINDS.contains((String) member.getKey())) found.add((String) member.getKey());
          stack.push(new Object[] {member.getValue(), depth + 1});
        }
      }
    }
    return tooDeep;
  }
}
