package dev.exportservice.client.internal.json;

import java.util.ArrayList;
import java.util.List;

/**
 * A JSON array, and for each string in it the bytes it takes as the document spells it between
 * its quotes (UTF-8, escapes as written): what a check that bounds the text it decodes counts.
 */
public final class JsonArray extends ArrayList<Object> {
  private static final long serialVersionUID = 1L;

  private final transient List<Long> spelled = new ArrayList<>();

  JsonArray() {}

  void add(Object value, long spelledBytes) {
    add(value);
    spelled.add(spelledBytes);
  }

  /**
   * The bytes of element {@code index} as the document spells it between its quotes, or -1 when
   * it is not a string.
   *
   * @param index the element
   * @return its bytes as written, or -1
   */
  public long spelledBytes(int index) {
    return spelled.get(index);
  }
}
