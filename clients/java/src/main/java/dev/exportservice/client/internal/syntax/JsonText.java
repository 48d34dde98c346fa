package dev.exportservice.client.internal.syntax;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.snbt.SnbtReader;
import dev.exportservice.client.internal.snbt.SnbtValue;
import dev.exportservice.client.internal.types.TypedTree;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.ValueType;
import dev.exportservice.client.internal.types.Vocabulary;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * JSON text (a text component) that does not read the world and is written in the text grammar
 * (src/export-safety/syntax/text.ts). The game resolves a text component of the kinds {@code selector},
 * {@code nbt} and {@code score} against the world, with the permissions of whoever runs the
 * summon or {@code data merge} (the console): a model could show players' names, positions and
 * inventories. So in every text (a value whose type is of kind {@code text}: a text display's
 * {@code text}, any part's {@code CustomName}, an item's names and lore) those kinds are
 * refused; then the text must be of the vocabulary file's text grammar.
 */
final class JsonText {
  private JsonText() {}

  /**
   * Throws unless the quoted string {@code value} is text of {@code type}: without '{' or '[' it
   * is plain text; else it must be strict JSON ({@code text} {@code not JSON}), nested at most the
   * SNBT depth limit ({@code depth}, {@code found} '[' when an array is too deep, else '{'), hold
   * none of the world-reading kinds ({@code text}, the first of them it holds anywhere, so the
   * order a reader walks keys in never changes the verdict), and be of {@code type}
   * ({@code type} at {@code path}).
   */
  static void checkJson(String value, ValueType type, Supplier<String> path) {
    if (value.indexOf('{') < 0 && value.indexOf('[') < 0) return;
    Object parsed;
    try {
      parsed = JsonReader.parse(value);
    } catch (IllegalArgumentException notJson) {
      throw new UnsafeContent(UnsafeContent.Reason.TEXT, "not JSON");
    }
    Set<String> found = new HashSet<>();
    boolean[] tooDeep = collectJson(parsed, found);
    if (tooDeep[0]) throw new UnsafeContent(UnsafeContent.Reason.DEPTH, "[");
    if (tooDeep[1]) throw new UnsafeContent(UnsafeContent.Reason.DEPTH, "{");
    throwWorldReading(found);
    if (!TypedTree.jsonMatches(type, parsed)) throw new UnsafeContent(UnsafeContent.Reason.TYPE, path.get());
  }

  /** The same for text written as SNBT (a compound or a list, read whole). */
  static void checkSnbt(SnbtValue value, ValueType type, Supplier<String> path) {
    Set<String> found = new HashSet<>();
    collectSnbt(value, found);
    throwWorldReading(found);
    if (!TypedTree.snbtMatches(type, value)) throw new UnsafeContent(UnsafeContent.Reason.TYPE, path.get());
  }

  private static void throwWorldReading(Set<String> found) {
    for (String kind : Vocabulary.WORLD_READING_KINDS) {
      if (found.contains(kind)) throw new UnsafeContent(UnsafeContent.Reason.TEXT, kind);
    }
    for (String kind : Vocabulary.CLICK_KINDS) {
      if (found.contains(kind)) throw new UnsafeContent(UnsafeContent.Reason.TEXT, kind, "textClick");
    }
  }

  /** Adds the world-reading kinds and click events named anywhere in an SNBT text to {@code found}. */
  private static void collectSnbt(SnbtValue value, Set<String> found) {
    if (value instanceof SnbtValue.ListOf list) {
      for (SnbtValue item : list.items()) collectSnbt(item, found);
    } else if (value instanceof SnbtValue.Compound compound) {
      for (Map.Entry<String, SnbtValue> member : compound.members()) {
        if (Vocabulary.REFUSED_TEXT_MEMBERS.contains(member.getKey())) found.add(member.getKey());
        collectSnbt(member.getValue(), found);
      }
    }
  }

  /**
   * Adds the world-reading kinds and click events named anywhere in parsed JSON to {@code found}, to the depth
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
      if (depth >= SnbtReader.MAX_DEPTH) {
        tooDeep[value instanceof List ? 0 : 1] = true;
        continue;
      }
      if (value instanceof List) {
        for (Object item : (List<?>) value) stack.push(new Object[] {item, depth + 1});
      } else {
        for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
          if (Vocabulary.REFUSED_TEXT_MEMBERS.contains((String) member.getKey())) found.add((String) member.getKey());
          stack.push(new Object[] {member.getValue(), depth + 1});
        }
      }
    }
    return tooDeep;
  }
}
