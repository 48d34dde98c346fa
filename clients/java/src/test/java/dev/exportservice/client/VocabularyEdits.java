package dev.exportservice.client;

/**
 * Edits of the vocabulary file's text for {@link VocabularyFileTest}: words inserted where the
 * file lists their kind, the rest of the file as it is.
 */
final class VocabularyEdits {
  private VocabularyEdits() {}

  /**
   * The file with {@code key} added to the block display's keys, a sound source, a sort and a
   * billboard mode (a word of a type).
   */
  static String addWords(String file, String key, String source, String sort, String billboard) {
    String edited = insertAfter(file, "\"block_display\": {", "\"keys\": [", "\"" + key + "\", ");
    edited = insertAfter(edited, "\"billboard\": {", "\"values\": [", "\"" + billboard + "\", ");
    edited = insertAfter(edited, "\"soundSources\"", "[", "\"" + source + "\", ");
    return insertAfter(edited, "\"selectorSorts\"", "[", "\"" + sort + "\", ");
  }

  /** {@code text} with {@code inserted} just after the first {@code at} that follows {@code near}. */
  private static String insertAfter(String text, String near, String at, String inserted) {
    int from = text.indexOf(near);
    if (from < 0) throw new IllegalStateException("the vocabulary file has no " + near);
    int place = text.indexOf(at, from);
    if (place < 0) throw new IllegalStateException("the vocabulary file has no " + at + " after " + near);
    place += at.length();
    return text.substring(0, place) + inserted + text.substring(place);
  }
}
