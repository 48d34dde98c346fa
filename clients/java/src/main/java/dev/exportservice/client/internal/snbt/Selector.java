package dev.exportservice.client.internal.snbt;

import java.util.ArrayList;
import java.util.List;

/**
 * A target selector's arguments ({@code @e[type=item_display,tag=gate_0,distance=..1]}), split
 * at the commas outside nested brackets: a tag in the published form holds the placeholder
 * ({@code tag=[MODELSERVERTAG]_7}), so brackets nest.
 */
public final class Selector {
  private Selector() {}

  /**
   * Where each argument of the selector {@code text} sits, {@code {start, end}} into it, for a
   * selector whose arguments open at {@code open} (just after its {@code '['}) and whose closing
   * {@code ']'} is its last character; null when it is not that. {@code @e[]} has none.
   *
   * @param text the selector, e.g. {@code @e[tag=a_0]}
   * @param open the index just after its {@code '['}
   * @return the arguments' spans, or null
   */
  public static List<int[]> arguments(String text, int open) {
    List<int[]> found = new ArrayList<>();
    int depth = 0;
    int start = open;
    for (int i = open; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '[') {
        depth++;
      } else if (c == ']') {
        if (depth == 0) {
          if (i != text.length() - 1) return null;
          if (i > start || !found.isEmpty()) found.add(new int[] {start, i});
          return found;
        }
        depth--;
      } else if (c == ',' && depth == 0) {
        found.add(new int[] {start, i});
        start = i + 1;
      }
    }
    return null;
  }
}
