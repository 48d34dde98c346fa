package dev.exportservice.client.internal.rules;

import dev.exportservice.client.internal.readers.PluginReaders;
import dev.exportservice.client.internal.snbt.Selector;
import dev.exportservice.client.internal.snbt.SnbtValue;
import dev.exportservice.client.internal.syntax.CheckedSnbt;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.ValueType;
import dev.exportservice.client.internal.types.Vocabulary;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The commands that animate a model, one per string, checked against the vocabulary:
 *
 * <ul>
 *   <li>{@code data merge entity <selector> <compound>}: the selector an {@code @e[...]} with a
 *       {@code type=} of a part's type and {@code tag=}s the model's own parts carry
 *       ({@code distance}, {@code limit}, {@code sort} may stand beside them), the compound that
 *       type's keys;
 *   <li>{@code playsound <sound> <source> <@a or @a[...]> <x> <y> <z> [volume [pitch [minVolume]]]};
 *   <li>in a hitbox only: {@code summon minecraft:interaction <x> <y> <z> [<compound>]}.
 * </ul>
 *
 * Arguments are separated by one space. Anything else is outside the vocabulary.
 */
public final class Commands {
  private static final Pattern NUMBER = Vocabulary.NUMBER;
  private static final Pattern COORDINATE = Vocabulary.COORDINATE;
  private static final Pattern SOUND_ID = Vocabulary.SOUND_ID;
  private static final Pattern HITBOX_COORDINATE = Vocabulary.HITBOX_COORDINATE;
  private static final String[] AXES = {"x", "y", "z"};
  private static final String[] SOUND_ARGUMENTS = {"volume", "pitch", "minVolume"};
  private static final double[] SOUND_BOUNDS = {
    Vocabulary.MAX_SOUND_VOLUME, Double.POSITIVE_INFINITY, Vocabulary.MAX_SOUND_MIN_VOLUME
  };
  private static final Pattern DISTANCE = Vocabulary.DISTANCE;
  private static final Pattern LIMIT = Vocabulary.LIMIT;
  private static final Pattern PLAYERS = Vocabulary.PLAYSOUND_TARGETS;
  private static final Set<String> SOUND_SOURCES = Set.copyOf(Vocabulary.SOUND_SOURCES);
  private static final Set<String> SELECTOR_SORTS = Set.copyOf(Vocabulary.SELECTOR_SORTS);
  /** Selector arguments beside {@code type} and {@code tag}. */
  private static final Set<String> SELECTOR_EXTRA_ARGUMENTS = Set.of("distance", "limit", "sort");
  /** Selector verdicts kept per export, at most: a model targets a few hundred parts. */
  private static final int MAX_KEPT_SELECTORS = 4096;

  /** The tags the model's parts carry; a hitbox's summon adds its own. */
  private final Set<String> ownTags;
  /**
   * What every selector's tag begins with: the placeholder, or the tag a fetched export was asked
   * with; null to read it from the parts' tags once every frame may target them.
   */
  private String modelTag;
  /** A selector's verdict is kept: every frame targets the same parts. */
  private final Map<String, String> selectorTypes = new HashMap<>();

  /** The key types of the export's declared version, for the compounds its commands write. */
  private final Map<String, ValueType> keyTypes;

  public Commands(Set<String> ownTags, String modelTag, Map<String, ValueType> keyTypes) {
    this.ownTags = ownTags;
    this.modelTag = modelTag;
    this.keyTypes = keyTypes;
  }

  /**
   * Throws unless {@code text} holds no control character (U+0000-U+001F, U+007F-U+009F): a line
   * break would start a second command.
   */
  public static void checkOneLine(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        throw new UnsafeContent(UnsafeContent.Reason.CONTROL, String.format("U+%04X", (int) c));
      }
    }
  }

  /** Throws unless {@code command} is in the vocabulary of a hitbox or (otherwise) a frame. */
  public void check(String command, boolean hitbox) {
    checkOneLine(command);
    // Counted as fetched with the longest tag, so that no tag brings it over the game's limit.
    int length = Vocabulary.fetchedLength(command, Vocabulary.MAX_COMMAND_CHARS);
    if (length > Vocabulary.MAX_COMMAND_CHARS) {
      throw new UnsafeContent(UnsafeContent.Reason.LENGTH, String.valueOf(length));
    }
    Words words = new Words(command, keyTypes);
    String word = words.next();
    if (hitbox) {
      if (!word.equals("summon")) throw new UnsafeContent(UnsafeContent.Reason.COMMAND, word);
      checkHitboxSummon(words);
    } else if (word.equals("data")) {
      dataMerge(words);
    } else if (word.equals("playsound")) {
      checkPlaysound(words);
    } else {
      throw new UnsafeContent(UnsafeContent.Reason.COMMAND, word);
    }
    if (!PluginReaders.readsAsDisplayEntityUtils(command)) {
      throw new UnsafeContent(UnsafeContent.Reason.READER, PluginReaders.DISPLAY_ENTITY_UTILS, "readerRun");
    }
  }

  /** {@code data merge entity <selector> <compound>}, after {@code data}. */
  private void dataMerge(Words words) {
    String action = words.next();
    if (!action.equals("merge")) throw new UnsafeContent(UnsafeContent.Reason.COMMAND, "data " + action);
    String target = words.next();
    if (!target.equals("entity")) {
      throw new UnsafeContent(UnsafeContent.Reason.COMMAND, "data merge " + target);
    }
    String selector = words.next();
    String type = selectorTypes.get(selector);
    if (type == null) {
      type = checkOwnPartSelector(selector, tagOfModel());
      if (selectorTypes.size() < MAX_KEPT_SELECTORS) selectorTypes.put(selector, type);
    }
    Entities.checkPartData(type, words.compoundToEnd(), null);
  }

  private static void checkPlaysound(Words words) {
    words.expect(SOUND_ID);
    String source = words.next();
    if (!SOUND_SOURCES.contains(source)) throw new UnsafeContent(UnsafeContent.Reason.SYNTAX, source);
    String targets = words.next();
    if (!PLAYERS.matcher(targets).matches()) throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, targets);
    for (int axis = 0; axis < 3; axis++) words.expect(COORDINATE);
    // Louder than real models play, or heard by every targeted player however far: refused.
    for (int optional = 0; optional < 3 && !words.atEnd(); optional++) {
      String word = words.expect(NUMBER);
      if (Double.parseDouble(word) > SOUND_BOUNDS[optional]) {
        throw new UnsafeContent(UnsafeContent.Reason.VALUE, SOUND_ARGUMENTS[optional]);
      }
    }
    words.end();
  }

  private void checkHitboxSummon(Words words) {
    String id = words.next();
    if (!Vocabulary.HITBOX_TYPE.equals(Vocabulary.partTypeOf(id))) {
      throw new UnsafeContent(UnsafeContent.Reason.ENTITY, id);
    }
    // Relative to where the model is spawned, within 16 blocks: never at absolute coordinates.
    for (String axis : AXES) {
      if (!HITBOX_COORDINATE.matcher(words.expect(COORDINATE)).matches()) {
        throw new UnsafeContent(UnsafeContent.Reason.VALUE, axis);
      }
    }
    if (!words.atEnd()) Entities.checkPartData(Vocabulary.HITBOX_TYPE, words.compoundToEnd(), ownTags);
  }

  /**
   * Checks a {@code data merge} target: {@code @e[...]} with one {@code type=} of a part's type
   * and one or more {@code tag=}s the model's own parts carry. Returns the type. A tag holds the
   * placeholder in the published form ({@code tag=[MODELSERVERTAG]_7}), so brackets nest.
   */
  private String checkOwnPartSelector(String selector, String modelTag) {
    if (!selector.startsWith("@e[") || !selector.endsWith("]")) {
      throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, selector);
    }
    String type = null;
    boolean tagged = false;
    for (String argument : selectorArguments(selector)) {
      int equals = argument.indexOf('=');
      String name = equals < 0 ? argument : argument.substring(0, equals);
      String value = equals < 0 ? "" : argument.substring(equals + 1);
      if (name.equals("type")) {
        String named = Vocabulary.partTypeOf(value);
        if (named == null || type != null) throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, argument);
        type = named;
      } else if (name.equals("tag")) {
        // `tag=!x` (every entity without x) and `tag=` (every untagged one) reach other models.
        if (value.isEmpty() || value.startsWith("!") || !value.startsWith(modelTag) || !ownTags.contains(value)) {
          throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, argument);
        }
        tagged = true;
      } else if (!SELECTOR_EXTRA_ARGUMENTS.contains(name) || !validExtra(name, value)) {
        throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, argument);
      }
    }
    if (type == null || !tagged) throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, selector);
    return type;
  }

  /**
   * What a selector's tag must begin with. Not given: the placeholder when a part's tag begins
   * with it (the published form), else nothing (a fetched form: every tag a selector names must
   * still be one the model's own parts carry). Read at the first selector, when the parts' and
   * hitboxes' tags are all collected.
   */
  private String tagOfModel() {
    if (modelTag == null) {
      boolean published = false;
      for (String tag : ownTags) if (tag.startsWith(Vocabulary.PLACEHOLDER)) published = true;
      modelTag = published ? Vocabulary.PLACEHOLDER : "";
    }
    return modelTag;
  }

  private static boolean validExtra(String name, String value) {
    if (name.equals("distance")) return !value.isEmpty() && DISTANCE.matcher(value).matches();
    if (name.equals("limit")) return LIMIT.matcher(value).matches();
    return SELECTOR_SORTS.contains(value);
  }

  /** The arguments of {@code @e[...]}, split at the commas outside nested brackets. */
  private static List<String> selectorArguments(String selector) {
    List<int[]> spans = Selector.arguments(selector, 3);
    if (spans == null) throw new UnsafeContent(UnsafeContent.Reason.SELECTOR, selector);
    List<String> found = new ArrayList<>(spans.size());
    for (int[] span : spans) found.add(selector.substring(span[0], span[1]));
    return found;
  }

  /** The space-separated words of a command, read one at a time. */
  private static final class Words {
    private final String text;
    private final Map<String, ValueType> keyTypes;
    private int position;

    Words(String text, Map<String, ValueType> keyTypes) {
      this.text = text;
      this.keyTypes = keyTypes;
    }

    /** Whether the last word ended the text (a trailing space leaves one empty word to read). */
    boolean atEnd() {
      return position > text.length();
    }

    /** The next word (possibly empty), and the one space after it. */
    String next() {
      if (position > text.length()) throw CheckedSnbt.unexpectedAt(text, text.length());
      int space = text.indexOf(' ', position);
      int end = space < 0 ? text.length() : space;
      String word = text.substring(position, end);
      position = end + 1;
      return word;
    }

    String expect(Pattern pattern) {
      String word = next();
      if (!pattern.matcher(word).matches()) throw new UnsafeContent(UnsafeContent.Reason.SYNTAX, word);
      return word;
    }

    void end() {
      if (!atEnd()) throw new UnsafeContent(UnsafeContent.Reason.SYNTAX, next());
    }

    /** An SNBT compound that runs to the end of the command. */
    SnbtValue.Compound compoundToEnd() {
      if (position >= text.length() || text.charAt(position) != '{') throw CheckedSnbt.unexpectedAt(text, position);
      CheckedSnbt.Parse parse = CheckedSnbt.value(text, position, keyTypes, null);
      if (parse.end() != text.length()) throw CheckedSnbt.unexpectedAt(text, parse.end());
      return (SnbtValue.Compound) parse.value();
    }
  }
}
