package dev.exportservice.client.internal.vocabulary;

import dev.exportservice.client.internal.json.JsonReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The vocabulary file as the jar carries it ({@code vocabulary.json} beside this class, copied by
 * the build from src/export-safety/), parsed once when first used. A jar without it, or with a
 * file of another form, fails at that first use with an {@link IllegalStateException} naming
 * what is missing: a build error, never a silent default.
 */
public final class VocabularyFile {
  /** The resource's name, beside this class (so that a shading plugin relocates it with it). */
  public static final String RESOURCE = "vocabulary.json";

  private static final Map<?, ?> ROOT = load();

  private VocabularyFile() {}

  private static Map<?, ?> load() {
    try (InputStream in = VocabularyFile.class.getResourceAsStream(RESOURCE)) {
      if (in == null) throw new IllegalStateException("The jar holds no " + RESOURCE + " beside " + VocabularyFile.class.getName());
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A vocabulary file's text, parsed; its root must be an object.
   *
   * @param text the file's text
   * @return its root object
   */
  public static Map<?, ?> parse(String text) {
    Object root = JsonReader.parse(text);
    if (!(root instanceof Map)) throw new IllegalStateException(RESOURCE + " is not a JSON object");
    return (Map<?, ?>) root;
  }

  /** {@return the file's root object, as the jar carries it} */
  public static Map<?, ?> root() {
    return ROOT;
  }

  /**
   * The value at {@code path} (member names, from the root) in the jar's file.
   *
   * @param path member names
   * @return the value there
   * @throws IllegalStateException when there is none
   */
  public static Object at(String... path) {
    return at(ROOT, path);
  }

  /**
   * The value at {@code path} (member names) in {@code root}.
   *
   * @param root a parsed vocabulary
   * @param path member names
   * @return the value there
   * @throws IllegalStateException when there is none
   */
  public static Object at(Map<?, ?> root, String... path) {
    Object value = root;
    for (String name : path) {
      if (!(value instanceof Map) || !((Map<?, ?>) value).containsKey(name)) {
        throw new IllegalStateException(RESOURCE + " has no " + String.join(".", path));
      }
      value = ((Map<?, ?>) value).get(name);
    }
    return value;
  }

  /**
   * The string at {@code path}.
   *
   * @param path member names
   * @return the string
   */
  public static String string(String... path) {
    return asString(at(path), path);
  }

  /**
   * The whole number at {@code path}.
   *
   * @param path member names
   * @return the number
   */
  public static int integer(String... path) {
    Object value = at(path);
    if (!(value instanceof BigDecimal)) throw new IllegalStateException(RESOURCE + ": " + String.join(".", path) + " is not a number");
    return ((BigDecimal) value).intValueExact();
  }

  /**
   * The list of strings at {@code path}, in the file's order.
   *
   * @param path member names
   * @return the strings
   */
  public static List<String> strings(String... path) {
    return strings(at(path), path);
  }

  /**
   * {@code value} as a list of strings.
   *
   * @param value a parsed value
   * @param path where it is, for the error
   * @return the strings
   */
  public static List<String> strings(Object value, String... path) {
    if (!(value instanceof List)) throw new IllegalStateException(RESOURCE + ": " + String.join(".", path) + " is not a list");
    List<String> strings = new ArrayList<>();
    for (Object item : (List<?>) value) strings.add(asString(item, path));
    return List.copyOf(strings);
  }

  /**
   * The object at {@code path}, its members in the file's order.
   *
   * @param path member names
   * @return the object
   */
  public static Map<?, ?> object(String... path) {
    Object value = at(path);
    if (!(value instanceof Map)) throw new IllegalStateException(RESOURCE + ": " + String.join(".", path) + " is not an object");
    return (Map<?, ?>) value;
  }

  private static String asString(Object value, String... path) {
    if (!(value instanceof String)) throw new IllegalStateException(RESOURCE + ": " + String.join(".", path) + " holds a non-string");
    return (String) value;
  }
}
