package dev.exportservice.client.internal.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.snbt.Snbt;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The service's vocabulary file (src/export-safety/vocabulary.json, what the TypeScript check
 * reads) and this client's tables hold the same words, in the same order: a word added to or
 * dropped from either side fails here.
 */
class VocabularyFileTest {
  private static final Path FILE =
      Path.of(System.getProperty("service.root", "../..")).resolve("src/export-safety/vocabulary.json");

  private static Map<?, ?> file() throws Exception {
    return (Map<?, ?>) JsonReader.parse(Files.readString(FILE));
  }

  @Test
  void theLimitsAreTheFiles() throws Exception {
    Map<?, ?> limits = (Map<?, ?>) file().get("limits");
    Map<String, Integer> java = new TreeMap<>();
    java.put("maxCommandChars", Vocabulary.MAX_COMMAND_CHARS);
    java.put("maxSnbtDepth", Snbt.MAX_DEPTH);
    java.put("maxNameChars", Vocabulary.MAX_NAME_CHARS);
    java.put("maxPassengerBytes", Vocabulary.MAX_PASSENGER_BYTES);
    java.put("maxOwnTags", Vocabulary.MAX_OWN_TAGS);
    java.put("maxFoundChars", Vocabulary.MAX_FOUND_CHARS);
    java.put("maxMessagePathChars", Vocabulary.MAX_MESSAGE_PATH_CHARS);
    Map<String, Integer> service = new TreeMap<>();
    limits.forEach((name, value) -> service.put((String) name, ((BigDecimal) value).intValueExact()));
    assertEquals(service, java);
    assertEquals(file().get("placeholder"), Vocabulary.PLACEHOLDER);
    assertEquals(file().get("defaultNamespace"), Vocabulary.DEFAULT_NAMESPACE);
  }

  @Test
  void theCheckedNamesAreTheFiles() throws Exception {
    Map<?, ?> names = (Map<?, ?>) file().get("names");
    assertEquals(names.get("root"), Vocabulary.ROOT_NAMES);
    assertEquals(names.get("content"), Vocabulary.CONTENT_NAMES);
    assertEquals(names.get("datapack"), Vocabulary.DATAPACK_NAMES);
  }

  @Test
  void everyEntityHasTheFilesKeysInItsPlace() throws Exception {
    Map<String, Object> service = new TreeMap<>();
    ((Map<?, ?>) file().get("entities")).forEach((type, entity) -> service.put((String) type, entity));
    Map<String, Object> java = new TreeMap<>();
    Vocabulary.PART_KEYS.forEach(
        (type, keys) -> {
          Map<String, Object> entity = new LinkedHashMap<>();
          entity.put("place", type.equals(Vocabulary.HITBOX_TYPE) ? "hitbox" : "passenger");
          entity.put("keys", keys);
          java.put(type, entity);
        });
    assertEquals(service, java);
    assertEquals(file().get("passengerKeys"), Vocabulary.PASSENGER_KEYS);
  }

  @Test
  void theCommandsSelectorsAndSourcesAreTheFiles() throws Exception {
    Map<?, ?> commands = (Map<?, ?>) file().get("commands");
    assertEquals(commands.get("frame"), Vocabulary.FRAME_COMMANDS);
    assertEquals(commands.get("hitbox"), Vocabulary.HITBOX_COMMANDS);
    assertEquals(Map.of("frame", 0, "hitbox", 0).keySet(), commands.keySet());
    assertEquals(file().get("selectorArguments"), Vocabulary.SELECTOR_ARGUMENTS);
    assertEquals(file().get("selectorSorts"), Vocabulary.SELECTOR_SORTS);
    assertEquals(file().get("soundSources"), Vocabulary.SOUND_SOURCES);
    assertEquals(new TreeMap<>((Map<?, ?>) file().get("patterns")), new TreeMap<>(Vocabulary.PATTERNS));
  }

  @Test
  void theTextRulesReadersAndInvisibleCharactersAreTheFiles() throws Exception {
    Map<?, ?> text = (Map<?, ?>) file().get("text");
    assertEquals(text.get("entityKeys"), Vocabulary.TEXT_KEYS);
    assertEquals(text.get("itemKeys"), Vocabulary.ITEM_TEXT_KEYS);
    assertEquals(text.get("worldReadingKinds"), Vocabulary.WORLD_READING_KINDS);
    assertEquals(file().get("readerMarkers"), Vocabulary.READER_MARKERS);
    List<List<String>> java = new ArrayList<>();
    for (int[] range : Vocabulary.INVISIBLE) {
      java.add(List.of(String.format("%04X", range[0]), String.format("%04X", range[1])));
    }
    assertEquals(file().get("invisible"), java);
  }

  @Test
  void theFileHoldsNothingElse() throws Exception {
    assertEquals(
        List.of(
            "about", "minecraftVersion", "limits", "placeholder", "defaultNamespace", "names", "entities",
            "passengerKeys", "commands", "selectorArguments", "selectorSorts", "soundSources", "patterns", "text",
            "readerMarkers", "invisible"),
        new ArrayList<>(file().keySet()),
        "a new table in the file needs its Java twin and a line here");
    assertEquals("1.21.4", file().get("minecraftVersion"));
  }
}
