package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Documents that are not exports, or not of an export's shape, and the edges of `meta`. */
class ModelReaderTest {
  @Test
  void aDocumentThatIsNotAnExportSaysWhatWasFound() {
    Map<String, String> found =
        Map.of(
            "{\"error\":\"Bad gateway\",\"code\":\"x\"}", "an object with the members [error, code] and no content",
            "[1,2]", "an array",
            "\"text\"", "a string",
            "{\"content\":[]}", "an object whose content is an array",
            "<html>", "not JSON (Not JSON at character 0: unexpected '<')");
    found.forEach(
        (json, said) -> {
          ExportServiceException error = assertThrows(ExportServiceException.class, () -> Model.parseUnchecked(json));
          assertEquals("The document is not an export ({\"content\": {...}}): it is " + said + ".", error.getMessage());
          assertEquals(0, error.status());
        });
  }

  @Test
  void aFieldOfAnotherShapeIsNamedByItsPath() {
    Map<String, String> found =
        Map.of(
            "{\"content\":{\"passengers\":[1]}}", "content.passengers[0] is a number, not a string",
            "{\"content\":{\"passengers\":[\"{id:1}x\"]}}", "content.passengers[0] is not entity compounds: unexpected \"x\"",
            "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"x\":[]}}}}}", "content.datapack.anim_keyframes.a has the frame \"x\", not a frame index",
            "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"0\":\"cmd\"}}}}}", "NONE",
            "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"0\":[true]}}}}}", "content.datapack.anim_keyframes.a.0[0] is a boolean, not a string",
            "{\"content\":{\"meta\":3}}", "content.meta is a number, not an object");
    found.forEach(
        (json, said) -> {
          if (said.equals("NONE")) {
            assertEquals(List.of("cmd"), Model.parseUnchecked(json).animation("a").commandsAt(0));
            return;
          }
          ExportServiceException error = assertThrows(ExportServiceException.class, () -> Model.parseUnchecked(json));
          assertEquals("The export does not have the shape of one: " + said + ".", error.getMessage());
        });
  }

  /**
   * The model reads SNBT with the check's own reader: a passenger string the check refuses for
   * its SNBT (an escape, a reader marker, brackets a plugin's reader would cut at, nesting 64
   * deep) is not entity compounds to the model either, and one level less reads.
   */
  @Test
  void theModelReadsSnbtAsTheCheckDoes() {
    String deep = "[".repeat(63) + "1" + "]".repeat(63);
    List<List<String>> cases =
        List.of(
            List.of("{id:\"item_display\",CustomName:'a\\nb'}", "escape", "the escape \"\\n\", which Minecraft versions read differently"),
            List.of("{id:\"item_display\",CustomName:'{id:1}'}", "reader", "\"{id:\" in a quoted string, where a plugin's own reader would cut it"),
            List.of("{id:\"item_display\",CustomName:'a]'}", "reader", "\"]\" in a quoted string, where a plugin's own reader would cut it"),
            List.of("{id:\"item_display\",x:[" + deep + "]}", "depth", "\"[\" nested deeper than 64"));
    for (List<String> each : cases) {
      String passenger = each.get(0);
      String said = each.get(2);
      String json = "{\"content\":{\"passengers\":[\"" + passenger.replace("\\", "\\\\").replace("\"", "\\\"") + "\"]}}";
      UnsafeExportException refused = assertThrows(UnsafeExportException.class, () -> ExportSafety.check(json));
      assertEquals(each.get(1), refused.reason(), passenger);
      assertTrue(said.contains("\"" + refused.found() + "\""), refused.found() + " / " + said);
      ExportServiceException error = assertThrows(ExportServiceException.class, () -> Model.parseUnchecked(json));
      assertEquals("The export does not have the shape of one: content.passengers[0] is not entity compounds: " + said + ".", error.getMessage());
    }
    String shallower = "{id:\"item_display\",x:[" + deep.substring(1, deep.length() - 1) + "]}";
    assertEquals(1, Model.parseUnchecked("{\"content\":{\"passengers\":[\"" + shallower.replace("\"", "\\\"") + "\"]}}").partCount());
  }

  @Test
  void aStepOfZeroOrLessIsOneAndTheDurationReachesTheLastFrame() {
    String json =
        "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"4\":[\"x\"]},\"b\":{\"1\":[\"y\"]}}},"
            + "\"meta\":{\"animations\":{\"a\":{\"stepTicks\":0,\"durationTicks\":2},\"b\":{\"stepTicks\":-3,\"name\":\"Bee\"}}}}}";
    Model model = Model.parseUnchecked(json);
    assertEquals(1, model.animation("a").stepTicks());
    assertEquals(4, model.animation("a").durationTicks(), "never shorter than its last frame");
    assertEquals(List.of("x"), model.animation("a").commandsAt(4));
    assertEquals("Bee", model.animation("b").displayName());
    assertEquals(0, model.partCount());
    assertEquals(null, model.tag());
    assertThrows(IllegalStateException.class, () -> model.withTag("t"));
    assertTrue(model.summonCommand().equals("summon minecraft:block_display ~ ~ ~ {Passengers:[]}"));
  }

  @Test
  void aTagIsWhatTheServiceWouldMake() {
    Model model = Model.parseUnchecked("{\"content\":{\"passengers\":[\"{id:\\\"item_display\\\",Tags:[\\\"a_0\\\"]}\"]}}");
    for (String bad : List.of("", "a b", "x".repeat(101), "é", "a]")) {
      assertThrows(IllegalArgumentException.class, () -> model.withTag(bad), bad);
    }
    assertEquals("summon minecraft:block_display ~ ~ ~ {Tags:[\"b-1\"],Passengers:[{id:\"item_display\",Tags:[\"b-1_0\"]}]}", model.withTag("b-1").summonCommand());
  }

  @Test
  void theLastOfARepeatedMemberWinsAsInAPluginsParser() {
    Model model =
        Model.parseUnchecked("{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"0\":[\"first\"]}}},\"datapack\":{}}}");
    assertTrue(model.animationNames().isEmpty());
  }
}
