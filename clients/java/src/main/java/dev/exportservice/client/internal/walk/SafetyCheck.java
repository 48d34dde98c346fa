package dev.exportservice.client.internal.walk;

import dev.exportservice.client.internal.json.JsonArray;
import dev.exportservice.client.internal.json.JsonObject;
import dev.exportservice.client.internal.readers.PluginReaders;
import dev.exportservice.client.internal.rules.Commands;
import dev.exportservice.client.internal.rules.Entities;
import dev.exportservice.client.internal.rules.PassengerReaders;
import dev.exportservice.client.internal.syntax.CheckedSnbt;
import dev.exportservice.client.internal.types.Messages;
import dev.exportservice.client.internal.types.Refusal;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.ValueType;
import dev.exportservice.client.internal.types.Versions;
import dev.exportservice.client.internal.types.Vocabulary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The check of a whole export: find the fields a plugin runs and hold each string against the
 * vocabulary; the first place outside it is the verdict. The service's own check, rule for rule,
 * so that both name the same path (docs/export-safety.md, "Order").
 *
 * <p>Order, as the service's: the root's member names, then {@code content}'s, then
 * {@code content.passengers}, {@code content.Passengers}, {@code content.hitbox} (their parts'
 * tags are what a {@code data merge} may target), {@code content.commands},
 * {@code content.datapack} (its member names, then {@code anim_keyframes},
 * {@code sound_keyframes} and BlockDisplayCreator's two), then {@code content}'s typed members. In {@code content} and {@code datapack} a repeated member counts at
 * its first place with its last value (what the JSON reader keeps); inside
 * {@code anim_keyframes} and {@code sound_keyframes} every member is checked where it stands,
 * repeated ones included, so whichever a reader keeps was checked.
 *
 * <p>The safety room: it reads a parsed document (the JSON room's maps and lists) through the
 * SNBT room, and answers with a {@link Refusal}; it knows nothing of the client or the model.
 */
public final class SafetyCheck {
  private static final String CONTENT = "content";
  /** A member name written {@code .name} in a path; any other is {@code ["name"]}. */
  private static final Pattern PLAIN_NAME = Pattern.compile("[A-Za-z0-9_-]+");

  /** The tags the model's parts carry: what a {@code data merge} may target. */
  private final Set<String> ownTags = new HashSet<>();
  private final Commands commands;
  /** The key types of the export's declared version: every SNBT value is typed as it reads it. */
  private final Map<String, ValueType> keyTypes;
  /** Bytes of the passenger strings read so far, as written. */
  private long passengerBytes;

  private SafetyCheck(String modelTag, Map<String, ValueType> keyTypes) {
    this.keyTypes = keyTypes;
    commands = new Commands(ownTags, modelTag, keyTypes);
  }

  /**
   * The first place where the published {@code document} (parsed JSON, tags as placeholders) is
   * outside the vocabulary, or null.
   *
   * @param document parsed JSON: maps, lists, strings, numbers, booleans, null
   * @return the refusal, or null when the document is inside the vocabulary
   */
  public static Refusal find(Object document) {
    return find(document, Vocabulary.PLACEHOLDER);
  }

  /**
   * The first place where {@code document} (parsed JSON) is outside the vocabulary, or null. A
   * document that is not of the form {@code {"content": {...}}} holds nothing a plugin runs: null,
   * once its root names are checked.
   *
   * @param document parsed JSON: maps, lists, strings, numbers, booleans, null
   * @param modelTag what every selector's tag begins with: the placeholder in the published form,
   *     the tag it was fetched with in a fetched one (never empty); null to read it from the
   *     parts' tags: the placeholder when a part's tag begins with it, else any tag the model's
   *     own parts carry
   * @return the refusal, or null when the document is inside the vocabulary
   */
  public static Refusal find(Object document, String modelTag) {
    if (modelTag != null && modelTag.isEmpty()) throw new IllegalArgumentException("The tag an export was fetched with is never empty.");
    if (!(document instanceof Map)) return null;
    Map<?, ?> root = (Map<?, ?>) document;
    Refusal names = names(root, "", Vocabulary.ROOT_NAMES, true);
    if (names != null) return names;
    Object content = root.get(CONTENT);
    if (!(content instanceof Map)) return null;
    Map<?, ?> fields = (Map<?, ?>) content;
    Refusal contentNames = names(fields, CONTENT, Vocabulary.CONTENT_NAMES, true);
    if (contentNames != null) return contentNames;
    // Every SNBT value is typed as the declared version reads it ({@link Versions}).
    return new SafetyCheck(modelTag, Versions.keyTypesOf(fields.get("version"))).run(fields);
  }

  private Refusal run(Map<?, ?> fields) {
    Refusal verdict = passengerList(fields, "passengers");
    if (verdict == null) verdict = oldPassengers(fields);
    if (verdict == null) verdict = member(fields, "hitbox", command -> commands.check(command, true));
    if (verdict == null) verdict = member(fields, "commands", command -> commands.check(command, false));
    if (verdict == null) verdict = datapack(fields);
    if (verdict == null) verdict = typedMembers(fields);
    return verdict;
  }

  /**
   * The members of {@code content} read as data, not run, in order: of their JSON type
   * ({@code shape}) and within their bounds ({@code value}).
   */
  private static Refusal typedMembers(Map<?, ?> fields) {
    for (Map.Entry<?, ?> entry : fields.entrySet()) {
      String name = (String) entry.getKey();
      Vocabulary.MemberRule rule = Vocabulary.MEMBER_RULES.get(name);
      if (rule == null) continue;
      Object value = entry.getValue();
      String path = path(name);
      if (rule.json().equals("data")) {
        Refusal verdict = data(value, path, name, 0);
        if (verdict != null) return verdict;
        continue;
      }
      String type = jsonType(value);
      if (!type.equals(rule.json())) return shape(value, path);
      boolean inBounds =
          switch (type) {
            case "string" -> rule.pattern().matcher((String) value).matches();
            case "boolean" -> value.equals(rule.only());
            default -> {
              double number = ((Number) value).doubleValue();
              yield number >= rule.min() && number <= rule.max();
            }
          };
      if (!inBounds) return refusal(path, UnsafeContent.Reason.VALUE, name);
    }
    return null;
  }

  /**
   * Plain data of the member {@code member} at {@code path}, inside {@code depth} containers of
   * it: containers nested at most the limit deep, strings short and without control characters,
   * every member where it stands.
   */
  private static Refusal data(Object value, String path, String member, int depth) {
    if (value instanceof String) {
      return isPlainString((String) value) ? null : refusal(path, UnsafeContent.Reason.VALUE, member);
    }
    if (!(value instanceof Map) && !(value instanceof List)) return null;
    if (depth >= Vocabulary.DATA_MAX_DEPTH) return refusal(path, UnsafeContent.Reason.VALUE, member);
    if (value instanceof List) {
      List<?> list = (List<?>) value;
      for (int index = 0; index < list.size(); index++) {
        Refusal verdict = data(list.get(index), path + "[" + index + "]", member, depth + 1);
        if (verdict != null) return verdict;
      }
      return null;
    }
    for (Map.Entry<String, Object> entry : written((Map<?, ?>) value)) {
      String name = entry.getKey();
      if (nameLength(name) > Vocabulary.MAX_NAME_CHARS) return nameTooLong(path, name);
      Refusal verdict = data(entry.getValue(), memberPath(path, name), member, depth + 1);
      if (verdict != null) return verdict;
    }
    return null;
  }

  private static boolean isPlainString(String text) {
    if (text.length() > Vocabulary.DATA_MAX_STRING_CHARS) return false;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false;
    }
    return true;
  }

  /** The first refused member name of {@code object} at {@code path}, in order. */
  private static Refusal names(Map<?, ?> object, String path, List<String> checked, boolean only) {
    for (Object name : object.keySet()) {
      Refusal verdict = checkName(path, (String) name, checked, only);
      if (verdict != null) return verdict;
    }
    return null;
  }

  /**
   * The refusal of a member {@code name} of the object at {@code parent} unless it is one of
   * {@code checked} or has nothing to do with them: a name that differs from a checked one only by
   * characters a reader does not see is {@code member}; a name longer than the limit is
   * {@code length} at {@code parent}. With {@code only}, every name but the checked ones is
   * {@code member}.
   */
  private static Refusal checkName(String parent, String name, List<String> checked, boolean only) {
    if (checked.contains(name)) return null;
    if (nameLength(name) > Vocabulary.MAX_NAME_CHARS) return nameTooLong(parent, name);
    if (only || checked.contains(Vocabulary.visiblePart(name))) {
      return refusal(memberPath(parent, name), UnsafeContent.Reason.MEMBER, spellName(name));
    }
    return null;
  }

  /** A member name's length, each placeholder counted as the longest tag it may become. */
  private static int nameLength(String name) {
    return Vocabulary.fetchedLength(name, Vocabulary.MAX_NAME_CHARS);
  }

  private static Refusal nameTooLong(String parent, String name) {
    String found = String.valueOf(nameLength(name));
    return refusal(parent, UnsafeContent.Reason.LENGTH, found, "lengthName");
  }

  /**
   * A passenger string ({@code spelled}: its bytes as the document writes it), as it goes inside
   * a summon's {@code Passengers:[...]}: display entities only. The one that brings the passenger
   * strings over the limit as written is refused before it is read.
   */
  private void passengers(String text, long spelled) {
    passengerBytes += spelled;
    if (passengerBytes > Vocabulary.MAX_PASSENGER_BYTES) {
      throw new UnsafeContent(UnsafeContent.Reason.LENGTH, String.valueOf(passengerBytes), "lengthPassengers");
    }
    // Each placeholder counted as the longest tag it may become when fetched.
    passengerBytes += Vocabulary.placeholderGrowth(text);
    if (passengerBytes > Vocabulary.MAX_PASSENGER_BYTES) {
      throw new UnsafeContent(UnsafeContent.Reason.LENGTH, String.valueOf(passengerBytes), "lengthPassengers");
    }
    Commands.checkOneLine(text);
    List<PluginReaders.GrammarCompound> compounds = new ArrayList<>();
    List<String> types = new ArrayList<>();
    CheckedSnbt.forEachCompound(
        text,
        keyTypes,
        (compound, start, end) -> {
          String type = Entities.checkPassenger(compound, ownTags);
          types.add(type);
          if (start >= 0) compounds.add(new PluginReaders.GrammarCompound(start, end, type));
        });
    PassengerReaders.checkPassengerReaders(text, compounds, types, keyTypes);
  }

  /** Checks each passenger string of the list {@code fields.name} (absent: nothing to check). */
  private Refusal passengerList(Map<?, ?> fields, String name) {
    if (!fields.containsKey(name)) return null;
    Object value = fields.get(name);
    String path = path(name);
    if (!(value instanceof List)) return shape(value, path);
    List<?> items = (List<?>) value;
    for (int index = 0; index < items.size(); index++) {
      Object item = items.get(index);
      String itemPath = path + "[" + index + "]";
      if (!(item instanceof String)) return shape(item, itemPath);
      long spelled = items instanceof JsonArray ? ((JsonArray) items).spelledBytes(index) : spelled((String) item);
      Refusal verdict = checked(itemPath, () -> passengers((String) item, spelled));
      if (verdict != null) return verdict;
    }
    return null;
  }

  /** {@code Passengers} of older exports: one string, or a list of them, as {@code passengers}. */
  private Refusal oldPassengers(Map<?, ?> fields) {
    Object value = fields.get("Passengers");
    if (!(value instanceof String)) return passengerList(fields, "Passengers");
    long spelled = fields instanceof JsonObject ? ((JsonObject) fields).spelledBytes("Passengers") : spelled((String) value);
    return checked(path("Passengers"), () -> passengers((String) value, spelled));
  }

  /** Bytes of a string not read from a document: its UTF-8 (escapes it would need not counted). */
  private static long spelled(String text) {
    return text.getBytes(StandardCharsets.UTF_8).length;
  }

  /** {@code datapack}: its member names, then {@code anim_keyframes} and {@code sound_keyframes}. */
  private Refusal datapack(Map<?, ?> fields) {
    if (!fields.containsKey("datapack")) return null;
    Object datapack = fields.get("datapack");
    String path = path("datapack");
    if (!(datapack instanceof Map)) return shape(datapack, path);
    Map<?, ?> members = (Map<?, ?>) datapack;
    Refusal names = names(members, path, Vocabulary.DATAPACK_NAMES, true);
    if (names != null) return names;
    for (String name : Vocabulary.DATAPACK_NAMES) {
      if (!members.containsKey(name)) continue;
      Refusal verdict = keyframes(members.get(name), memberPath(path, name));
      if (verdict != null) return verdict;
    }
    return null;
  }

  /** Animation, frame, commands: every member where it stands, repeated names included. */
  private Refusal keyframes(Object keyframes, String path) {
    if (!(keyframes instanceof Map)) return shape(keyframes, path);
    for (Map.Entry<String, Object> animation : written((Map<?, ?>) keyframes)) {
      String name = animation.getKey();
      if (nameLength(name) > Vocabulary.MAX_NAME_CHARS) return nameTooLong(path, name);
      String animationPath = memberPath(path, name);
      if (!(animation.getValue() instanceof Map)) return shape(animation.getValue(), animationPath);
      for (Map.Entry<String, Object> frame : written((Map<?, ?>) animation.getValue())) {
        if (nameLength(frame.getKey()) > Vocabulary.MAX_NAME_CHARS) return nameTooLong(animationPath, frame.getKey());
        Refusal verdict =
            strings(frame.getValue(), memberPath(animationPath, frame.getKey()), command -> commands.check(command, false));
        if (verdict != null) return verdict;
      }
    }
    return null;
  }

  /** The members of an object as written, repeated names included. */
  @SuppressWarnings("unchecked")
  private static List<Map.Entry<String, Object>> written(Map<?, ?> object) {
    if (object instanceof JsonObject) return ((JsonObject) object).written();
    return List.copyOf(((Map<String, Object>) object).entrySet());
  }

  /** Checks each string of the list {@code parent.name} (absent: nothing to check). */
  private Refusal member(Map<?, ?> parent, String name, Consumer<String> check) {
    if (!parent.containsKey(name)) return null;
    return strings(parent.get(name), path(name), check);
  }

  /** Checks each string of the list {@code value}. */
  private Refusal strings(Object value, String path, Consumer<String> check) {
    if (!(value instanceof List)) return shape(value, path);
    List<?> items = (List<?>) value;
    for (int index = 0; index < items.size(); index++) {
      Object item = items.get(index);
      String itemPath = path + "[" + index + "]";
      if (!(item instanceof String)) return shape(item, itemPath);
      Refusal verdict = checked(itemPath, () -> check.accept((String) item));
      if (verdict != null) return verdict;
    }
    return null;
  }

  private static Refusal checked(String path, Runnable check) {
    try {
      check.run();
      return null;
    } catch (UnsafeContent unsafe) {
      return refusal(path, unsafe.reason, unsafe.found, unsafe.message);
    }
  }

  private static Refusal shape(Object value, String path) {
    return refusal(path, UnsafeContent.Reason.SHAPE, jsonType(value));
  }

  private static String jsonType(Object value) {
    if (value == null || value == JsonObject.NULL) return "null";
    if (value instanceof Map) return "object";
    if (value instanceof List) return "array";
    if (value instanceof String) return "string";
    if (value instanceof Number) return "number";
    return "boolean";
  }

  private static String path(String name) {
    return memberPath(CONTENT, name);
  }

  private static Refusal refusal(String path, UnsafeContent.Reason reason, String found) {
    return refusal(path, reason, found, null);
  }

  /** The refusal; {@code what} the message's name when not the reason's own. */
  private static Refusal refusal(String path, UnsafeContent.Reason reason, String found, String what) {
    String cut = cut(found, Vocabulary.MAX_FOUND_CHARS);
    String where = path.isEmpty() ? "The document" : cut(path, Vocabulary.MAX_MESSAGE_PATH_CHARS);
    String said = Messages.of(what != null ? what : reason.name().toLowerCase(Locale.ROOT), cut);
    return new Refusal(path, reason.name().toLowerCase(Locale.ROOT), cut, where + " " + said + ".");
  }

  /**
   * {@code text} cut to at most {@code max} UTF-16 code units: the first {@code max - 1} (one
   * fewer when the last would be the first half of a surrogate pair), then U+2026.
   */
  static String cut(String text, int max) {
    if (text.length() <= max) return text;
    int end = max - 1;
    if (Character.isHighSurrogate(text.charAt(end - 1))) end--;
    return text.substring(0, end) + "\u2026";
  }

  /**
   * The path of member {@code name} of the value at {@code parent}: JavaScript's property
   * access, {@code .name} for a plain word, else {@code ["name"]} spelled by {@link #spellName}.
   */
  static String memberPath(String parent, String name) {
    if (PLAIN_NAME.matcher(name).matches()) return parent.isEmpty() ? name : parent + "." + name;
    return parent + "[\"" + spellName(name) + "\"]";
  }

  /**
   * A name as {@code JSON.stringify} spells it between its quotes, and then every code point that
   * is unprintable or that a reader does not see (U+007F-U+009F, U+2028, U+2029, the vocabulary's
   * invisible ones) as {@code \\uXXXX}, lower-case hex, one per UTF-16 unit.
   */
  static String spellName(String name) {
    StringBuilder out = new StringBuilder(name.length());
    for (int i = 0; i < name.length(); ) {
      int code = name.codePointAt(i);
      int units = Character.charCount(code);
      switch (code) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          boolean escaped =
              code < 0x20
                  || (code >= 0xD800 && code <= 0xDFFF) // a lone surrogate
                  || (code >= 0x7F && code <= 0x9F)
                  || code == 0x2028
                  || code == 0x2029
                  || Vocabulary.isInvisible(code);
          if (escaped) {
            for (int unit = 0; unit < units; unit++) out.append(String.format("\\u%04x", (int) name.charAt(i + unit)));
          } else {
            out.appendCodePoint(code);
          }
      }
      i += units;
    }
    return out.toString();
  }
}
