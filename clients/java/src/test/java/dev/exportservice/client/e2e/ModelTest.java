package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Animation;
import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportSafety;
import dev.exportservice.client.FixtureFrames;
import dev.exportservice.client.Model;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The model of what the real service (`npm start`) serves: the three fixtures' parts, animations
 * and sounds as their `meta` and keyframes say, `withTag` against the service's own substitution,
 * and the other export shapes (several passenger strings, nested passengers, missing frames, no
 * datapack or meta, a hitbox).
 */
class ModelTest {
  private static final Map<String, Integer> PARTS =
      Map.of("stone-gate-136-displays", 136, "animated-80-displays", 80, "reading-41-displays", 41);
  private static final String PART = "{id:\\\"minecraft:%s\\\",%s,Tags:[\\\"[MODELSERVERTAG]_%d\\\"]%s}";
  /** Two passenger strings, a nested text display, frames 0 and 3 only, no meta, a hitbox. */
  private static final String SHAPES =
      "{\"content\":{\"passengers\":[\""
          + String.format(PART, "block_display", "block_state:{Name:\\\"minecraft:stone\\\"}", 0, "")
          + "\",\""
          + String.format(
              PART,
              "item_display",
              "item:{id:\\\"minecraft:apple\\\",count:1}",
              1,
              ",Passengers:[" + String.format(PART, "text_display", "text:'\\\"hi\\\"'", 2, "") + "]")
          + "\"],\"datapack\":{\"anim_keyframes\":{\"wave\":{"
          + "\"3\":[\"data merge entity @e[type=item_display,tag=[MODELSERVERTAG]_1,distance=..1,limit=1,sort=nearest] {item_display:\\\"head\\\"}\","
          + "\"data merge entity @e[type=text_display,tag=[MODELSERVERTAG]_2,distance=..1,limit=1,sort=nearest] {text:'\\\"bye\\\"'}\"],"
          + "\"0\":[\"data merge entity @e[type=block_display,tag=[MODELSERVERTAG]_0,distance=..1,limit=1,sort=nearest] {block_state:{Name:\\\"minecraft:dirt\\\"}}\"]}}},"
          + "\"hitbox\":[\"summon minecraft:interaction ~ ~ ~ {width:1f,height:2f,Tags:[\\\"[MODELSERVERTAG]_hitbox\\\"]}\"]}}";

  private static LocalService service;
  private static ExportClient client;
  private static final Map<String, String> published = new java.util.LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    service = LocalService.start("model", Map.of());
    for (String name : PARTS.keySet()) published.put(name, service.publish(LocalService.fixture(name)));
    published.put("shapes", service.publish(SHAPES.getBytes(StandardCharsets.UTF_8)));
    client = LocalService.clientOfItsOwn(service.url, Duration.ZERO);
  }

  @AfterAll
  static void stop() throws Exception {
    if (service != null) service.close();
  }

  /**
   * The one-argument check and {@code Model.parse(json)} accept a real model as fetched, whatever
   * its tag (the tags the service allows, the words a plugin's reader keys on among them): its
   * selectors reach only the tags its own parts carry.
   */
  @Test
  void theOneArgumentCheckAcceptsEveryFixtureFetchedWithAnyTag() {
    ExportClient ownClient = LocalService.clientOfItsOwn(service.url, Duration.ZERO);
    List<String> tags = List.of("fk", "id", "Passengers", "passengers", "minecraft", "_", "-", "t".repeat(100));
    for (Map.Entry<String, String> fixture : published.entrySet()) {
      for (String tag : tags) {
        String body = ownClient.fetch(fixture.getValue(), tag).join().body();
        String name = fixture.getKey() + " fetched with tag=" + tag;
        assertTrue(body.contains(tag + "_0"), name);
        assertDoesNotThrow(() -> ExportSafety.check(body), name);
        assertDoesNotThrow(() -> ExportSafety.check(body, tag), name);
        assertEquals(tag, Model.parse(body).tag(), name);
      }
    }
  }

  @Test
  void countsEveryFixturesParts() {
    for (Map.Entry<String, Integer> fixture : PARTS.entrySet()) {
      Model model = client.fetch(published.get(fixture.getKey()), "bde").join().model();
      assertEquals(fixture.getValue(), model.partCount(), fixture.getKey());
      assertEquals("bde", model.tag());
    }
  }

  @Test
  void readsAnimationsAndSoundsAsTheirMetaAndKeyframesSay() {
    for (String name : PARTS.keySet()) {
      Export export = client.fetch(published.get(name), "bde").join();
      Model model = export.model();
      assertSame(model, export.model(), "parsed once");
      for (String keyframes : List.of("anim_keyframes", "sound_keyframes")) {
        boolean sounds = keyframes.startsWith("sound");
        Map<String, TreeMap<Integer, List<String>>> expected = FixtureFrames.frames(export.body(), keyframes);
        assertEquals(
            List.copyOf(expected.keySet()),
            List.copyOf(sounds ? model.soundNames() : model.animationNames()),
            name + " " + keyframes);
        for (Map.Entry<String, TreeMap<Integer, List<String>>> track : expected.entrySet()) {
          Animation animation = sounds ? model.sound(track.getKey()) : model.animation(track.getKey());
          String section = sounds ? "sounds" : "animations";
          assertEquals(FixtureFrames.meta(export.body(), section, track.getKey(), "durationTicks"), animation.durationTicks());
          assertEquals(FixtureFrames.meta(export.body(), section, track.getKey(), "stepTicks"), animation.stepTicks());
          // Walking every tick yields every frame's commands once, in frame order.
          List<String> walked = new ArrayList<>();
          int framesSeen = 0;
          for (int tick = 0; tick <= animation.durationTicks(); tick++) {
            List<String> now = animation.commandsAt(tick);
            if (!now.isEmpty()) framesSeen++;
            walked.addAll(now);
          }
          List<String> inFrameOrder = new ArrayList<>();
          track.getValue().values().forEach(inFrameOrder::addAll);
          assertEquals(inFrameOrder, walked, name + " " + track.getKey());
          assertEquals(track.getValue().size(), framesSeen);
          assertTrue(animation.commandsAt(animation.durationTicks() + 1).isEmpty());
          assertTrue(animation.commandsAt(-1).isEmpty());
        }
      }
      assertNull(model.animation("absent"));
      assertNull(model.sound("absent"));
      assertTrue(model.hitboxCommands().isEmpty(), "no fixture has a hitbox");
    }
    // The stone gate leaves frames out: 46 of 0..50, nothing runs at theirs.
    Animation open = client.fetch(published.get("stone-gate-136-displays"), "bde").join().model().animation("open");
    assertEquals(46, open.frameIndices().size());
    assertEquals(50, (int) open.frameIndices().get(45));
    long emptyFrameTicks =
        java.util.stream.IntStream.rangeClosed(0, 50).filter(frame -> open.commandsAt(frame * 2).isEmpty()).count();
    assertEquals(5, emptyFrameTicks);
  }

  @Test
  void withTagIsWhatTheServiceServesUnderThatTag() {
    for (String name : published.keySet()) {
      Model bde = client.fetch(published.get(name), "bde").join().model();
      Model served = client.fetch(published.get(name), "gate_2").join().model();
      Model copy = bde.withTag("gate_2");
      assertEquals("gate_2", copy.tag());
      assertSameModel(served, copy, name);
      // And nothing else: back under the first tag, it is the first model again.
      assertSameModel(bde, copy.withTag("bde"), name);
      assertFalse(copy.summonCommand().contains("\"bde_"), name);
    }
  }

  @Test
  void theSummonCommandSpawnsEveryPassengerOnATaggedRoot() {
    for (String name : published.keySet()) {
      Export export = client.fetch(published.get(name), "gate_2").join();
      String summon = export.model().summonCommand();
      assertTrue(summon.startsWith("summon minecraft:block_display ~ ~ ~ {Tags:[\"gate_2\"],Passengers:["), summon.substring(0, 80));
      assertTrue(summon.endsWith("]}"));
      for (String passenger : FixtureFrames.passengers(export.body())) assertTrue(summon.contains(passenger), name);
      assertEquals(
          "execute at @e[type=minecraft:block_display,tag=gate_2,limit=1] run say hi",
          export.model().atModel("say hi"));
    }
  }

  @Test
  void readsSeveralPassengerStringsNestedPartsMissingFramesNoMetaAndAHitbox() {
    Model model = client.fetch(published.get("shapes"), "tower").join().model();
    assertEquals(3, model.partCount(), "two riding the root, one riding the second");
    assertEquals("tower", model.tag());
    assertTrue(model.soundNames().isEmpty());
    Animation wave = model.animation("wave");
    assertEquals(1, wave.stepTicks(), "no meta: every tick");
    assertEquals(3, wave.durationTicks(), "no meta: up to the last frame");
    assertEquals(1, wave.commandsAt(0).size());
    assertTrue(wave.commandsAt(1).isEmpty() && wave.commandsAt(2).isEmpty());
    assertEquals(2, wave.commandsAt(3).size());
    assertTrue(wave.commandsAt(3).get(0).contains("tag=tower_1,"));
    assertEquals(
        List.of("summon minecraft:interaction ~ ~ ~ {width:1f,height:2f,Tags:[\"tower_hitbox\"]}"),
        model.hitboxCommands());
    assertEquals(
        List.of(
            "execute as @e[type=minecraft:block_display,tag=tower] on passengers on passengers run kill @s",
            "execute as @e[type=minecraft:block_display,tag=tower] on passengers run kill @s",
            "kill @e[type=minecraft:block_display,tag=tower]"),
        model.removeCommands());
  }

  private static void assertSameModel(Model expected, Model actual, String name) {
    assertEquals(expected.tag(), actual.tag(), name);
    assertEquals(expected.partCount(), actual.partCount(), name);
    assertEquals(expected.summonCommand(), actual.summonCommand(), name);
    assertEquals(expected.hitboxCommands(), actual.hitboxCommands(), name);
    assertEquals(expected.removeCommands(), actual.removeCommands(), name);
    for (boolean sounds : new boolean[] {false, true}) {
      for (String track : sounds ? expected.soundNames() : expected.animationNames()) {
        Animation a = sounds ? expected.sound(track) : expected.animation(track);
        Animation b = sounds ? actual.sound(track) : actual.animation(track);
        assertEquals(a.durationTicks(), b.durationTicks());
        for (int tick = 0; tick <= a.durationTicks(); tick++) {
          assertEquals(a.commandsAt(tick), b.commandsAt(tick), name + " " + track + " at " + tick);
        }
      }
    }
  }
}
