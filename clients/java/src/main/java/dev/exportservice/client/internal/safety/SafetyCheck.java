package dev.exportservice.client.internal.safety;

import java.math.BigDecimal;
import dev.exportservice.client.internal.snbt.Snbt;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The check of a whole export: find the fields a plugin runs and hold each string against the
 * vocabulary; the first string outside it is the verdict. The service's own check, rule for
 * rule, so that both name the same path (docs/export-safety.md).
 *
 * <p>Order, as the service's: {@code content.passengers}, {@code content.Passengers},
 * {@code content.hitbox} (their parts' tags are what a {@code data merge} may target), then
 * {@code content.commands}, {@code content.datapack.anim_keyframes},
 * {@code content.datapack.sound_keyframes}; inside each, document order, a repeated member
 * counted at its first place with its last value (what the JSON reader keeps).
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
  private final Commands commands = new Commands(ownTags);

  private SafetyCheck() {}

  /**
   * The first place where {@code document} (parsed JSON) is outside the vocabulary, or null. A
   * document that is not of the form {@code {"content": {...}}} holds nothing a plugin runs.
   *
   * @param document parsed JSON: maps, lists, strings, numbers, booleans, null
   * @return the refusal, or null when the document is inside the vocabulary
   */
  public static Refusal find(Object document) {
    if (!(document instanceof Map)) return null;
    Object content = ((Map<?, ?>) document).get(CONTENT);
    if (!(content instanceof Map)) return null;
    return new SafetyCheck().run((Map<?, ?>) content);
  }

  private Refusal run(Map<?, ?> fields) {
    Refusal verdict = strings(fields, "passengers", path("passengers"), this::passengers);
    if (verdict == null) verdict = oldPassengers(fields);
    if (verdict == null) verdict = strings(fields, "hitbox", path("hitbox"), command -> commands.check(command, true));
    if (verdict == null) verdict = strings(fields, "commands", path("commands"), command -> commands.check(command, false));
    if (verdict == null) verdict = datapack(fields);
    return verdict;
  }

  private static String path(String name) {
    return memberPath(CONTENT, name);
  }

  /** Passengers as they go inside a summon's {@code Passengers:[...]}: display entities only. */
  private void passengers(String text) {
    Commands.checkOneLine(text);
    Snbt.forEachCompound(text, compound -> Vocabulary.checkPassenger(compound, ownTags));
  }

  /** {@code Passengers} of older exports: one string, or a list of them, as {@code passengers}. */
  private Refusal oldPassengers(Map<?, ?> fields) {
    Object value = fields.get("Passengers");
    if (value instanceof String) return checked(path("Passengers"), () -> passengers((String) value));
    return strings(fields, "Passengers", path("Passengers"), this::passengers);
  }

  /** {@code datapack.anim_keyframes} and {@code datapack.sound_keyframes}: animation, frame, commands. */
  private Refusal datapack(Map<?, ?> fields) {
    if (!fields.containsKey("datapack")) return null;
    Object datapack = fields.get("datapack");
    String path = path("datapack");
    if (!(datapack instanceof Map)) return shape(datapack, path);
    for (String name : List.of("anim_keyframes", "sound_keyframes")) {
      Map<?, ?> members = (Map<?, ?>) datapack;
      if (!members.containsKey(name)) continue;
      Refusal verdict = keyframes(members.get(name), memberPath(path, name));
      if (verdict != null) return verdict;
    }
    return null;
  }

  private Refusal keyframes(Object keyframes, String path) {
    if (!(keyframes instanceof Map)) return shape(keyframes, path);
    for (Map.Entry<?, ?> animation : ((Map<?, ?>) keyframes).entrySet()) {
      String animationPath = memberPath(path, (String) animation.getKey());
      if (!(animation.getValue() instanceof Map)) return shape(animation.getValue(), animationPath);
      Map<?, ?> frames = (Map<?, ?>) animation.getValue();
      for (Object frame : frames.keySet()) {
        Refusal verdict =
            strings(frames, (String) frame, memberPath(animationPath, (String) frame), command -> commands.check(command, false));
        if (verdict != null) return verdict;
      }
    }
    return null;
  }

  /** Checks each string of the list {@code parent.name} (absent: nothing to check). */
  private Refusal strings(Map<?, ?> parent, String name, String path, Consumer<String> check) {
    if (!parent.containsKey(name)) return null;
    Object value = parent.get(name);
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
      return refusal(path, unsafe.reason, unsafe.found);
    } catch (Snbt.Unreadable unreadable) {
      return refusal(path, unreadable.tooDeep ? UnsafeContent.Reason.DEPTH : UnsafeContent.Reason.SYNTAX, unreadable.found);
    }
  }

  private static Refusal shape(Object value, String path) {
    return refusal(path, UnsafeContent.Reason.SHAPE, jsonType(value));
  }

  private static Refusal refusal(String path, UnsafeContent.Reason reason, String found) {
    return new Refusal(path, reason.name().toLowerCase(Locale.ROOT), found, path + " " + describe(reason, found) + ".");
  }

  private static String describe(UnsafeContent.Reason reason, String found) {
    switch (reason) {
      case COMMAND:
        return "runs the command \"" + found + "\", which is not part of a display model";
      case ENTITY:
        return "summons the entity \"" + found + "\", which is not part of a display model";
      case KEY:
        return "sets the entity key \"" + found + "\", which is not part of a display model";
      case SELECTOR:
        return "targets \"" + found + "\", which does not reach only the model's own parts";
      case SYNTAX:
        return "does not parse as an export writes it: unexpected \"" + found + "\"";
      case CONTROL:
        return "holds the control character " + found + ", and a command is one line";
      case LENGTH:
        return "is a command of " + found + " characters, longer than the game's " + Vocabulary.MAX_COMMAND_CHARS;
      case DEPTH:
        return "nests SNBT deeper than " + Snbt.MAX_DEPTH + " levels (found \"" + found + "\")";
      default:
        return "is a JSON " + found + ", not what an export writes there";
    }
  }

  private static String jsonType(Object value) {
    if (value == null) return "null";
    if (value instanceof Map) return "object";
    if (value instanceof List) return "array";
    if (value instanceof String) return "string";
    if (value instanceof BigDecimal) return "number";
    return "boolean";
  }

  /**
   * The path of member {@code name} of the value at {@code parent}: JavaScript's property
   * access, {@code .name} for a plain word, else {@code ["name"]} written as JSON writes it.
   */
  static String memberPath(String parent, String name) {
    if (PLAIN_NAME.matcher(name).matches()) return parent.isEmpty() ? name : parent + "." + name;
    return parent + "[" + jsonString(name) + "]";
  }

  /** {@code text} as JSON.stringify writes a string. */
  private static String jsonString(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        default:
          boolean lone =
              Character.isSurrogate(c)
                  && !(Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1)))
                  && !(Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(text.charAt(i - 1)));
          if (c < 0x20 || lone) out.append(String.format("\\u%04x", (int) c));
          else out.append(c);
      }
    }
    return out.append('"').toString();
  }
}
