package dev.exportservice.client.internal.walk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.types.Refusal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rules a port gets wrong most easily, each on the smallest export that shows it. */
class SafetyRulesTest {
  private static final String PART = "{id:\\\"minecraft:block_display\\\",Tags:[\\\"[MODELSERVERTAG]_0\\\"]}";
  private static final String SELECTOR = "@e[type=block_display,tag=[MODELSERVERTAG]_0]";

  /** An export of one part whose one frame merges {@code compound} into it. */
  private static Refusal frame(String compound) {
    String json =
        "{\"content\":{\"passengers\":[\"" + PART + "\"],\"datapack\":{\"anim_keyframes\":{\"a\":{\"0\":[\"data merge entity "
            + SELECTOR + " " + compound.replace("\"", "\\\"") + "\"]}}}}}";
    return SafetyCheck.find(JsonReader.parse(json));
  }

  private static List<String> verdict(Refusal refusal) {
    return refusal == null ? null : List.of(refusal.reason(), refusal.path(), refusal.found());
  }

  @Test
  void jsonTextNamesTheFirstWorldReadingKindItHoldsWhereverItStands() {
    String at = "content.datapack.anim_keyframes.a.0[0]";
    // selector, nbt, score in that order, whatever order a reader walks the keys in.
    assertEquals(List.of("text", at, "nbt"), verdict(frame("{CustomName:'{\"b\":{\"score\":1},\"0\":{\"nbt\":1}}'}")));
    assertEquals(List.of("text", at, "selector"), verdict(frame("{CustomName:'[{\"nbt\":1},[{\"selector\":1}]]'}")));
    // A repeated key keeps its first place and its last value: the nbt component is gone.
    assertNull(frame("{CustomName:'{\"text\":\"x\",\"extra\":[{\"nbt\":1}],\"extra\":[]}'}"));
    // An SNBT compound is text too (the service's fast path must not wave it through).
    assertEquals(List.of("text", at, "nbt"), verdict(frame("{CustomName:{a:{nbt:1},a:2}}")));
    assertEquals(List.of("text", at, "not JSON"), verdict(frame("{CustomName:'{\"a\":}'}")));
    assertNull(frame("{CustomName:'" + "[".repeat(64) + "\"1\"" + "]".repeat(64) + "'}"));
    // Text outside the text grammar (a member it does not have, a number where text goes).
    assertEquals(List.of("type", at, "CustomName"), verdict(frame("{CustomName:'{\"a\":2}'}")));
    assertEquals(List.of("type", at, "CustomName"), verdict(frame("{CustomName:'[1]'}")));
    assertEquals(List.of("depth", at, "["), verdict(frame("{CustomName:'" + "[".repeat(3000) + "1" + "]".repeat(3000) + "'}")));
    assertEquals(List.of("depth", at, "{"), verdict(frame("{CustomName:'" + "{\"a\":".repeat(65) + "1" + "}".repeat(65) + "'}")));
  }

  @Test
  void aRefusalIsBoundedAndNamesReadAsAReaderSeesThem() {
    Refusal longKey = frame("{" + "k".repeat(150) + ":1b}");
    assertEquals("k".repeat(99) + "\u2026", longKey.found());
    Refusal pair = frame("{" + "k".repeat(98) + "\ud83d\ude00" + "k".repeat(10) + ":1b}");
    assertEquals(List.of("syntax", "\ud83d\ude00"), List.of(pair.reason(), pair.found()), "not a word character");
    assertEquals("k", SafetyCheck.cut("k", 100));
    assertEquals("k".repeat(98) + "\u2026", SafetyCheck.cut("k".repeat(98) + "\ud83d\ude00" + "kk", 100));
    assertEquals("\\ufeffcontent", SafetyCheck.spellName("\ufeffcontent"));
    assertEquals("a\\\"b\\n\\u0085\\u200b\\udb40\\udc01\\ud800", SafetyCheck.spellName("a\"b\n\u0085\u200b\udb40\udc01\ud800"));
    Refusal root = SafetyCheck.find(JsonReader.parse("{\"content\":{},\"\ufeffcontent\":{}}"));
    assertEquals(List.of("member", "[\"\\ufeffcontent\"]", "\\ufeffcontent"), verdict(root));
    assertEquals("[\"\\ufeffcontent\"] is the member \"\\ufeffcontent\", which an export does not hold there.", root.message());
  }

  @Test
  void thePluginsReadersRunInsideTheCheckAndTheRefusalNamesTheReader() {
    // DisplayEntityUtils replaces this text before it dispatches a command: it would run another one.
    Refusal replaced = frame("{CustomName:'\"summon block_display ~-0.5 ~-0.5 ~-0.5\"'}");
    assertEquals(List.of("reader", "content.datapack.anim_keyframes.a.0[0]", "DisplayEntityUtils"), verdict(replaced));
    assertEquals(
        "content.datapack.anim_keyframes.a.0[0] reads otherwise under DisplayEntityUtils's own reader than under the"
            + " game's: that plugin would summon or run something else.",
        replaced.message());
    // SuperBlocksDisplays takes a part's type from `{id:"minecraft:...` at its start, else an item display.
    String idLast = "{Tags:[\\\"[MODELSERVERTAG]_0\\\"],id:\\\"minecraft:block_display\\\"}";
    assertEquals(
        List.of("reader", "content.passengers[0]", "SuperBlocksDisplays"),
        verdict(SafetyCheck.find(JsonReader.parse("{\"content\":{\"passengers\":[\"" + idLast + "\"]}}"))));
    // sanscraft-bde reads no entity where the grammar reads an empty list of them.
    assertEquals(
        List.of("reader", "content.passengers[0]", "sanscraft-bde"),
        verdict(SafetyCheck.find(JsonReader.parse("{\"content\":{\"passengers\":[\"\"]}}"))));
    assertNull(SafetyCheck.find(JsonReader.parse("{\"content\":{\"passengers\":[\"" + PART + "\"]}}")));
  }
}
