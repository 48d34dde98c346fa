package dev.exportservice.client.internal.json;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON object as {@code JSON.parse} and Gson read it (a repeated name keeps its first place and
 * its last value), and also every member as written, repeated names included, in document order:
 * a reader that walks the members one by one meets each of them.
 */
public final class JsonObject extends LinkedHashMap<String, Object> {
  private static final long serialVersionUID = 1L;

  private final transient List<Map.Entry<String, Object>> written = new ArrayList<>();
  private final transient Map<String, Long> spelled = new HashMap<>();

  JsonObject() {}

  void add(String name, Object value, long spelledBytes) {
    put(name, value);
    spelled.put(name, spelledBytes);
    written.add(Map.entry(name, value == null ? NULL : value));
  }

  /**
   * The bytes of member {@code name}'s value (the last one of that name) as the document spells
   * it between its quotes, or -1 when it is not a string.
   *
   * @param name the member
   * @return its bytes as written, or -1
   */
  public long spelledBytes(String name) {
    return spelled.getOrDefault(name, -1L);
  }

  /**
   * Every member as written, repeated names included, in document order; a JSON null is
   * {@link #NULL}.
   *
   * @return the members as written
   */
  public List<Map.Entry<String, Object>> written() {
    return Collections.unmodifiableList(written);
  }

  /** A JSON null among {@link #written()} (an entry holds no null). */
  public static final Object NULL =
      new Object() {
        @Override
        public String toString() {
          return "null";
        }
      };
}
