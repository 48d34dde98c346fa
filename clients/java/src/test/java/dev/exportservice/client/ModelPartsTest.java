package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.internal.snbt.SnbtReader;
import dev.exportservice.client.internal.snbt.SnbtValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * What a plugin needs to run the fixtures without arithmetic or an over-long command: the
 * passengers one by one and summons within a command's limit, the ticks of an animation's frames,
 * and the tag of a copy moved by the SNBT parser alone.
 */
class ModelPartsTest {
  private static final Path FIXTURES = Path.of(System.getProperty("service.root", "../..")).resolve("fixtures");
  private static final List<String> NAMES = List.of("animated-80-displays", "reading-41-displays", "stone-gate-136-displays");

  private static String fixture(String name) throws Exception {
    return Files.readString(FIXTURES.resolve(name + ".json")).replace("[MODELSERVERTAG]", "gate_2");
  }

  @Test
  void theLongSummonsComeInCommandsWithinTheLimit() throws Exception {
    Map<String, Integer> longest = new TreeMap<>();
    for (String name : NAMES) {
      String json = fixture(name);
      Model model = Model.parse(json);
      List<String> passengers = model.passengers();
      assertEquals(String.join(",", FixtureFrames.passengers(json)), String.join(",", passengers), name);
      List<String> summons = model.summonCommands();
      longest.put(name, model.summonCommand().length());
      List<String> spawned = new ArrayList<>();
      int parts = 0;
      for (String summon : summons) {
        assertTrue(summon.length() <= Model.MAX_COMMAND_CHARS, name + ": " + summon.length());
        String prefix = "summon minecraft:block_display ~ ~ ~ {Tags:[\"gate_2\"],Passengers:[";
        assertTrue(summon.startsWith(prefix) && summon.endsWith("]}"), summon.substring(0, 80));
        String riders = summon.substring(prefix.length(), summon.length() - 2);
        SnbtReader.Reading reading = SnbtReader.read(riders);
        for (SnbtValue.Compound compound : reading.compounds()) parts += displays(compound);
        for (int[] span : reading.spans()) spawned.add(riders.substring(span[0], span[1]));
      }
      assertEquals(passengers, spawned, name + ": every passenger once, in order");
      assertEquals(model.partCount(), parts, name);
      assertEquals(model.summonCommand().length() > Model.MAX_COMMAND_CHARS, summons.size() > 1, name);
      assertEquals(model.withTag("t").passengers().size(), passengers.size());
      assertTrue(model.withTag("t").passengers().get(0).contains("\"t_0\""), name);
    }
    // The two the issue measured with the placeholder: past 32,500 as one command.
    assertTrue(longest.get("animated-80-displays") > Model.MAX_COMMAND_CHARS, longest.toString());
    assertTrue(longest.get("reading-41-displays") > Model.MAX_COMMAND_CHARS, longest.toString());
    Model gate = Model.parse(fixture("stone-gate-136-displays"));
    assertEquals(List.of(gate.summonCommand()), gate.summonCommands(), "one command when all fit");
    assertThrows(IllegalArgumentException.class, () -> gate.summonCommands(100));
    int tight = gate.summonCommand().length() / 3;
    List<String> cut = gate.summonCommands(tight);
    assertTrue(cut.size() >= 3, cut.size() + " commands");
    for (String summon : cut) assertTrue(summon.length() <= tight);
  }

  private static int displays(SnbtValue.Compound entity) {
    int count = entity.get("id") instanceof SnbtValue.Text id && id.value().endsWith("_display") ? 1 : 0;
    if (entity.get("Passengers") instanceof SnbtValue.ListOf riders) {
      for (SnbtValue rider : riders.items()) count += displays((SnbtValue.Compound) rider);
    }
    return count;
  }

  @Test
  void anAnimationListsItsFrameTicks() throws Exception {
    int walked = 0;
    for (String name : NAMES) {
      String json = fixture(name);
      Model model = Model.parse(json);
      for (String keyframes : List.of("anim_keyframes", "sound_keyframes")) {
        Map<String, TreeMap<Integer, List<String>>> expected = FixtureFrames.frames(json, keyframes);
        for (Map.Entry<String, TreeMap<Integer, List<String>>> track : expected.entrySet()) {
          Animation animation =
              keyframes.equals("anim_keyframes") ? model.animation(track.getKey()) : model.sound(track.getKey());
          List<Integer> ticks = animation.frameTicks();
          List<Integer> everyTick = new ArrayList<>();
          for (int tick = 0; tick <= animation.durationTicks(); tick++) {
            if (!animation.commandsAt(tick).isEmpty()) everyTick.add(tick);
          }
          List<Integer> indices = new ArrayList<>(track.getValue().keySet());
          assertEquals(indices.size(), ticks.size(), name + " " + track.getKey());
          for (int i = 0; i < ticks.size(); i++) {
            assertEquals(indices.get(i) * animation.stepTicks(), ticks.get(i));
            assertEquals(track.getValue().get(indices.get(i)), animation.commandsAt(ticks.get(i)));
          }
          List<Integer> withCommands = new ArrayList<>(ticks);
          withCommands.removeIf(tick -> animation.commandsAt(tick).isEmpty());
          assertEquals(everyTick, withCommands, "walking the frame ticks meets every tick that has commands");
          walked += ticks.size();
        }
      }
    }
    assertTrue(walked > 100, walked + " frames");
    Model model =
        Model.parseUnchecked(
            "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"a\":{\"4\":[\"x\"],\"1\":[\"y\"]}}},"
                + "\"meta\":{\"animations\":{\"a\":{\"stepTicks\":3}}}}}");
    assertEquals(List.of(3, 12), model.animation("a").frameTicks());
  }

  @Test
  void aCopysTagMovesOnlyInTagsAndSelectors() {
    String words = "'{\"text\":\"@e[tag=a_0] Tags:[a_1]\"}'";
    String passenger = "{id:\"text_display\",text:" + words + ",Tags:[\"a_0\",b_1,'a_2',\"a\\\\_3\"]}";
    String frame = "data merge entity @e[type=text_display,tag=a_0,tag=!a_9,tag=ab_0] {text:" + words + ",Tags:[a_0]}";
    String hitbox = "summon minecraft:interaction ~ ~ ~ {Tags:[\"a_hitbox\"],response:1b}";
    String json =
        "{\"content\":{\"passengers\":[" + json(passenger) + "],\"datapack\":{\"anim_keyframes\":{\"x\":{\"0\":["
            + json(frame) + "]}}},\"hitbox\":[" + json(hitbox) + "]}}";
    Model model = Model.parseUnchecked(json);
    assertEquals("a", model.tag());
    Model copy = model.withTag("bb");
    assertEquals(
        "{id:\"text_display\",text:" + words + ",Tags:[\"bb_0\",b_1,'bb_2',\"a\\\\_3\"]}", copy.passengers().get(0));
    assertEquals(
        "summon minecraft:block_display ~ ~ ~ {Tags:[\"bb\"],Passengers:[" + copy.passengers().get(0) + "]}",
        copy.summonCommand());
    assertEquals(
        "data merge entity @e[type=text_display,tag=bb_0,tag=!bb_9,tag=ab_0] {text:" + words + ",Tags:[bb_0]}",
        copy.animation("x").commandsAt(0).get(0));
    assertEquals("summon minecraft:interaction ~ ~ ~ {Tags:[\"bb_hitbox\"],response:1b}", copy.hitboxCommands().get(0));
    assertEquals(model.passengers(), copy.withTag("a").passengers(), "and back");
  }

  private static String json(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
