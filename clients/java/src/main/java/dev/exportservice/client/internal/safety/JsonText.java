package dev.exportservice.client.internal.safety;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.snbt.Snbt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
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
   * Throws {@code text} when the JSON text {@code value} (an SNBT string holding JSON, or SNBT
   * text components) has a component that reads the world: {@code found} its kind, the first met
   * depth first. A string holding '{' or '[' that is not strict JSON: {@code not JSON}.
   */
  static void check(Object value) {
    if (value instanceof String) {
      String text = (String) value;
      if (text.indexOf('{') < 0 && text.indexOf('[') < 0) return;
      Object parsed;
      try {
        parsed = JsonReader.parse(text);
      } catch (IllegalArgumentException notJson) {
        throw new UnsafeContent(UnsafeContent.Reason.TEXT, "not JSON");
      }
      checkJson(parsed);
    } else if (value instanceof List) {
      for (Object item : (List<?>) value) check(item);
    } else if (value instanceof Snbt.Compound) {
      Snbt.Compound compound = (Snbt.Compound) value;
      for (int i = 0; i < compound.size(); i++) {
        if (KINDS.contains(compound.name(i))) throw new UnsafeContent(UnsafeContent.Reason.TEXT, compound.name(i));
        check(compound.value(i));
      }
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

  /**
   * Walks parsed JSON depth first, members in the order JavaScript lists an object's own keys
   * (array indices ascending, then the other names as first written), and throws at the first
   * world-reading name. A loop with a stack of its own: any depth that parses is walked.
   */
  private static void checkJson(Object root) {
    Deque<Iterator<?>> stack = new ArrayDeque<>();
    stack.push(List.of(root).iterator());
    while (!stack.isEmpty()) {
      Iterator<?> next = stack.peek();
      if (!next.hasNext()) {
        stack.pop();
        continue;
      }
      Object item = next.next();
      Object value = item;
      if (item instanceof Map.Entry) {
        Map.Entry<?, ?> member = (Map.Entry<?, ?>) item;
        if (KINDS.contains((String) member.getKey())) {
          throw new UnsafeContent(UnsafeContent.Reason.TEXT, (String) member.getKey());
        }
        value = member.getValue();
      }
      if (value instanceof List) stack.push(((List<?>) value).iterator());
      else if (value instanceof Map) stack.push(inJavaScriptOrder((Map<?, ?>) value).iterator());
    }
  }

  /** An object's members as {@code Object.entries} lists them. */
  private static List<Map.Entry<?, ?>> inJavaScriptOrder(Map<?, ?> object) {
    List<Map.Entry<?, ?>> indices = new ArrayList<>();
    List<Map.Entry<?, ?>> others = new ArrayList<>();
    for (Map.Entry<?, ?> member : object.entrySet()) {
      (isArrayIndex((String) member.getKey()) ? indices : others).add(member);
    }
    if (indices.isEmpty()) return others;
    indices.sort((a, b) -> Long.compare(Long.parseLong((String) a.getKey()), Long.parseLong((String) b.getKey())));
    indices.addAll(others);
    return indices;
  }

  /** A canonical array index: 0 to 2^32 - 2, no sign, no leading zero. */
  private static boolean isArrayIndex(String name) {
    if (name.isEmpty() || name.length() > 10) return false;
    if (name.length() > 1 && name.charAt(0) == '0') return false;
    for (int i = 0; i < name.length(); i++) if (name.charAt(i) < '0' || name.charAt(i) > '9') return false;
    return Long.parseLong(name) <= 4_294_967_294L;
  }
}
