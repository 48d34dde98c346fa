package dev.exportservice.client;

import dev.exportservice.client.internal.json.JsonReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A test's own reading of an export's keyframes, straight from the JSON (not through the model):
 * animation name to its frames' commands in frame order, and the {@code meta} numbers.
 */
public final class FixtureFrames {
  private FixtureFrames() {}

  /** {@code content.datapack.<keyframes>}: name to frame index to commands, frames ascending. */
  public static Map<String, TreeMap<Integer, List<String>>> frames(String json, String keyframes) {
    Map<String, TreeMap<Integer, List<String>>> out = new LinkedHashMap<>();
    Map<?, ?> datapack = (Map<?, ?>) content(json).get("datapack");
    Map<?, ?> tracks = datapack == null ? null : (Map<?, ?>) datapack.get(keyframes);
    if (tracks == null) return out;
    tracks.forEach(
        (name, frames) -> {
          TreeMap<Integer, List<String>> sorted = new TreeMap<>();
          ((Map<?, ?>) frames)
              .forEach(
                  (index, commands) -> {
                    List<String> list = new ArrayList<>();
                    for (Object command : (List<?>) commands) list.add((String) command);
                    sorted.put(Integer.parseInt((String) index), list);
                  });
          out.put((String) name, sorted);
        });
    return out;
  }

  /** {@code content.meta.<section>.<name>.<field>} as an int, or -1. */
  public static int meta(String json, String section, String name, String field) {
    Map<?, ?> meta = (Map<?, ?>) content(json).get("meta");
    Object value = ((Map<?, ?>) ((Map<?, ?>) meta.get(section)).get(name)).get(field);
    return value == null ? -1 : ((java.math.BigDecimal) value).intValueExact();
  }

  /** {@code content.passengers}, each string as it is. */
  public static List<String> passengers(String json) {
    List<String> out = new ArrayList<>();
    for (Object passenger : (List<?>) content(json).get("passengers")) out.add((String) passenger);
    return out;
  }

  private static Map<?, ?> content(String json) {
    return (Map<?, ?>) ((Map<?, ?>) JsonReader.parse(json)).get("content");
  }
}
