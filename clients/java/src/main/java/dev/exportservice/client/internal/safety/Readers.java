package dev.exportservice.client.internal.safety;

/**
 * What the plugins' own passenger readers see in a quoted SNBT string. Some plugins cut a
 * passenger string with a regular expression blind to quotes (docs/export-safety.md, "Readers"),
 * so a quoted string must read the same to them as to the game's grammar: none of the markers
 * they take for an entity's start, and its brackets balanced and nested within it.
 */
final class Readers {
  private Readers() {}

  /**
   * Throws {@code reader} unless the raw text of a quoted string (between its quotes, escapes as
   * written) holds none of {@link Vocabulary#READER_MARKERS} (in that order; {@code found} the
   * marker) and its brackets balance ({@code found} the first that does not fit, or the innermost
   * left open).
   */
  static void check(String raw) {
    for (String marker : Vocabulary.READER_MARKERS) {
      if (raw.contains(marker)) throw new UnsafeContent(UnsafeContent.Reason.READER, marker);
    }
    StringBuilder open = new StringBuilder();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c == '{' || c == '[') {
        open.append(c);
      } else if (c == '}' || c == ']') {
        int last = open.length() - 1;
        if (last < 0 || open.charAt(last) != (c == '}' ? '{' : '[')) {
          throw new UnsafeContent(UnsafeContent.Reason.READER, String.valueOf(c));
        }
        open.setLength(last);
      }
    }
    if (open.length() > 0) throw new UnsafeContent(UnsafeContent.Reason.READER, String.valueOf(open.charAt(open.length() - 1)));
  }
}
