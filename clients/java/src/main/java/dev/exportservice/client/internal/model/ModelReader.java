package dev.exportservice.client.internal.model;

import dev.exportservice.client.internal.snbt.SnbtReader;
import dev.exportservice.client.internal.snbt.SnbtValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a parsed export document ({@code {"content": {...}}}, docs/export-format.md) into
 * {@link ModelData}, accepting every shape real exports have: {@code passengers} as one string of
 * several compounds or as several strings (or the older {@code Passengers}), and no
 * {@code datapack}, {@code meta}, {@code hitbox} or sounds at all. A document of another shape
 * fails with {@link NotAnExport}, whose message says what was found where.
 */
public final class ModelReader {
  private ModelReader() {}

  /**
   * The model of a parsed document.
   *
   * @param document parsed JSON: maps, lists, strings, numbers, booleans, null
   * @return what its model is
   * @throws NotAnExport when the document is not an export, or not of an export's shape
   */
  public static ModelData read(Object document) {
    return new ModelReader().model(document);
  }

  /**
   * The sentence for a text that is not JSON at all.
   *
   * @param why the JSON reader's message
   * @param cause the JSON reader's exception
   * @return the failure, worded as the other documents that are not exports
   */
  public static NotAnExport notJson(String why, Throwable cause) {
    return new ModelReader().notAnExport("not JSON (" + why + ")", cause);
  }

  /**
   * The tag the parts of a parsed document carry as {@code <tag>_<n>} (the first part that has
   * one), or null: what {@link ModelData#tag()} would be, read without failing on any document.
   *
   * @param document parsed JSON
   * @return the model's tag, or null
   */
  public static String tagOf(Object document) {
    if (!(document instanceof Map)) return null;
    Object content = ((Map<?, ?>) document).get("content");
    if (!(content instanceof Map)) return null;
    Map<?, ?> fields = (Map<?, ?>) content;
    Object value = fields.containsKey("passengers") ? fields.get("passengers") : fields.get("Passengers");
    List<?> strings = value instanceof List ? (List<?>) value : value == null ? List.of() : List.of(value);
    for (Object text : strings) {
      if (!(text instanceof String)) return null;
      try {
        for (SnbtValue.Compound entity : SnbtReader.read((String) text).compounds()) {
          String tag = modelTag(entity, 0);
          if (tag != null) return tag;
        }
      } catch (SnbtReader.Unreadable notSnbt) {
        return null;
      }
    }
    return null;
  }

  /**
   * Throws unless a parsed document is an export at all ({@code {"content": {...}}}), before
   * anything else is read of it: a proxy's or a portal's JSON is "not an export", whatever else
   * it holds.
   *
   * @param document parsed JSON
   * @throws NotAnExport when it is not of that form
   */
  public static void requireExport(Object document) {
    new ModelReader().exportContent(document);
  }

  private Map<?, ?> exportContent(Object document) {
    if (!(document instanceof Map)) throw notAnExport(describe(document), null);
    Object content = ((Map<?, ?>) document).get("content");
    if (!(content instanceof Map)) {
      throw notAnExport(
          content == null
              ? describe(document) + " and no content"
              : "an object whose content is " + describe(content),
          null);
    }
    return (Map<?, ?>) content;
  }

  private ModelData model(Object document) {
    Map<?, ?> fields = exportContent(document);
    List<String> passengers = passengers(fields);
    List<String> compoundTexts = new ArrayList<>();
    int parts = 0;
    int nesting = 0;
    String tag = null;
    for (int i = 0; i < passengers.size(); i++) {
      String text = passengers.get(i);
      SnbtReader.Reading reading;
      try {
        reading = SnbtReader.read(text);
      } catch (SnbtReader.Unreadable notSnbt) {
        throw shape("content.passengers[" + i + "] is not entity compounds: " + fault(notSnbt));
      }
      for (int[] span : reading.spans()) compoundTexts.add(text.substring(span[0], span[1]));
      for (SnbtValue.Compound entity : reading.compounds()) {
        parts += displays(entity, 0);
        nesting = Math.max(nesting, 1 + depth(entity, 0));
        if (tag == null) tag = modelTag(entity, 0);
      }
    }
    Map<?, ?> datapack = optionalObject(fields, "datapack", "content.datapack");
    Map<?, ?> meta = optionalObject(fields, "meta", "content.meta");
    return new ModelData(
        tag,
        List.copyOf(passengers),
        List.copyOf(compoundTexts),
        parts,
        nesting,
        animations(datapack, "anim_keyframes", meta, "animations"),
        animations(datapack, "sound_keyframes", meta, "sounds"),
        commands(fields.get("hitbox"), "content.hitbox"));
  }

  private List<String> passengers(Map<?, ?> content) {
    Object value = content.containsKey("passengers") ? content.get("passengers") : content.get("Passengers");
    if (value == null) return List.of();
    if (value instanceof String) return List.of((String) value);
    return strings(value, "content.passengers");
  }

  /** What the SNBT reader found wrong, in words. */
  private static String fault(SnbtReader.Unreadable notSnbt) {
    switch (notSnbt.fault) {
      case ESCAPE:
        return "the escape \"" + notSnbt.found + "\", which Minecraft versions read differently";
      case READER:
        return "\"" + notSnbt.found + "\" in a quoted string, where a plugin's own reader would cut it";
      case DEPTH:
        return "\"" + notSnbt.found + "\" nested deeper than " + SnbtReader.MAX_DEPTH;
      default:
        return "unexpected \"" + notSnbt.found + "\"";
    }
  }

  /** The passengers of {@code entity} that are compounds (none when it has no list of them). */
  private static List<SnbtValue.Compound> riders(SnbtValue.Compound entity) {
    List<SnbtValue.Compound> riders = new ArrayList<>();
    if (entity.get("Passengers") instanceof SnbtValue.ListOf list) {
      for (SnbtValue item : list.items()) if (item instanceof SnbtValue.Compound rider) riders.add(rider);
    }
    return riders;
  }

  /** Display entities in {@code entity} and its nested {@code Passengers}. */
  private static int displays(SnbtValue.Compound entity, int depth) {
    int count = entity.get("id") instanceof SnbtValue.Text id && id.value().endsWith("_display") ? 1 : 0;
    if (depth < SnbtReader.MAX_DEPTH) for (SnbtValue.Compound rider : riders(entity)) count += displays(rider, depth + 1);
    return count;
  }

  /** How many levels of passengers ride {@code entity}: 0 when none. */
  private static int depth(SnbtValue.Compound entity, int level) {
    if (level >= SnbtReader.MAX_DEPTH) return 0;
    int deepest = 0;
    for (SnbtValue.Compound rider : riders(entity)) deepest = Math.max(deepest, 1 + depth(rider, level + 1));
    return deepest;
  }

  /** The model's tag named by the first part tag {@code <tag>_<n>} in {@code entity}, or null. */
  private static String modelTag(SnbtValue.Compound entity, int depth) {
    if (entity.get("Tags") instanceof SnbtValue.ListOf tags) {
      for (SnbtValue tag : tags.items()) {
        String model = tag instanceof SnbtValue.Text text ? ModelTags.modelTagOf(text.value()) : null;
        if (model != null) return model;
      }
    }
    if (depth < SnbtReader.MAX_DEPTH) {
      for (SnbtValue.Compound rider : riders(entity)) {
        String model = modelTag(rider, depth + 1);
        if (model != null) return model;
      }
    }
    return null;
  }

  private Map<String, ModelData.Track> animations(
      Map<?, ?> datapack, String keyframesName, Map<?, ?> meta, String metaName) {
    Map<String, ModelData.Track> animations = new LinkedHashMap<>();
    if (datapack == null) return animations;
    String path = "content.datapack." + keyframesName;
    Map<?, ?> keyframes = optionalObject(datapack, keyframesName, path);
    if (keyframes == null) return animations;
    Map<?, ?> described = meta == null ? null : optionalObject(meta, metaName, "content.meta." + metaName);
    for (Map.Entry<?, ?> animation : keyframes.entrySet()) {
      String name = (String) animation.getKey();
      String framesPath = path + "." + name;
      if (!(animation.getValue() instanceof Map)) {
        throw shape(framesPath + " is " + describe(animation.getValue()) + ", not an object of frames");
      }
      Map<Integer, List<String>> frames = new LinkedHashMap<>();
      for (Map.Entry<?, ?> frame : ((Map<?, ?>) animation.getValue()).entrySet()) {
        String key = (String) frame.getKey();
        if (!key.matches("0|[1-9][0-9]{0,8}")) {
          throw shape(framesPath + " has the frame \"" + key + "\", not a frame index");
        }
        frames.put(Integer.parseInt(key), commands(frame.getValue(), framesPath + "." + key));
      }
      Object about = described == null ? null : described.get(name);
      Map<?, ?> settings = about instanceof Map ? (Map<?, ?>) about : Map.of();
      Object displayName = settings.get("name");
      animations.put(
          name,
          new ModelData.Track(
              name,
              displayName instanceof String ? (String) displayName : null,
              wholeNumber(settings.get("stepTicks"), 1),
              wholeNumber(settings.get("durationTicks"), 0),
              frames));
    }
    return animations;
  }

  /** A list of commands; absent is none, a single string is one. */
  private List<String> commands(Object value, String path) {
    if (value == null) return List.of();
    if (value instanceof String) return List.of((String) value);
    return strings(value, path);
  }

  private List<String> strings(Object value, String path) {
    if (!(value instanceof List)) throw shape(path + " is " + describe(value) + ", not a list of strings");
    List<String> strings = new ArrayList<>();
    List<?> items = (List<?>) value;
    for (int i = 0; i < items.size(); i++) {
      if (!(items.get(i) instanceof String)) {
        throw shape(path + "[" + i + "] is " + describe(items.get(i)) + ", not a string");
      }
      strings.add((String) items.get(i));
    }
    return strings;
  }

  private Map<?, ?> optionalObject(Map<?, ?> parent, String name, String path) {
    Object value = parent.get(name);
    if (value == null || value instanceof Map) return (Map<?, ?>) value;
    throw shape(path + " is " + describe(value) + ", not an object");
  }

  /** A whole number that fits an int, or {@code otherwise}. */
  private static int wholeNumber(Object value, int otherwise) {
    if (!(value instanceof BigDecimal)) return otherwise;
    try {
      return ((BigDecimal) value).intValueExact();
    } catch (ArithmeticException notAnInt) {
      return otherwise;
    }
  }

  /** What a JSON value is, in words. */
  static String describe(Object value) {
    if (value == null) return "null";
    if (value instanceof Map) return "an object with the members " + names((Map<?, ?>) value);
    if (value instanceof List) return "an array";
    if (value instanceof String) return "a string";
    if (value instanceof Number) return "a number";
    return "a boolean";
  }

  /** The first few member names of an object, for a message. */
  private static String names(Map<?, ?> object) {
    List<Object> names = new ArrayList<>(object.keySet());
    String listed = names.subList(0, Math.min(names.size(), 8)).toString();
    return names.size() > 8 ? listed.substring(0, listed.length() - 1) + ", ...]" : listed;
  }

  private NotAnExport notAnExport(String found, Throwable cause) {
    return new NotAnExport("The document is not an export ({\"content\": {...}}): it is " + found + ".", cause);
  }

  private static NotAnExport shape(String what) {
    return new NotAnExport("The export does not have the shape of one: " + what + ".", null);
  }
}
