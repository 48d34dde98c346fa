package dev.exportservice.client;

import dev.exportservice.client.internal.model.ModelData;
import dev.exportservice.client.internal.model.ModelTags;
import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A display model read from an export (docs/export-format.md): its parts, ready to spawn with
 * one command, its animations and sounds, frame by frame, and its hitbox. Get one from a fetched
 * export with {@link Export#model()}, or from a saved copy with {@link #parse(String)}. Immutable
 * and thread-safe; building the commands touches no server API, so it may run on any thread,
 * while running them belongs on the server's main thread (or the region's, on Folia).
 *
 * <p>Every part carries the tag {@code <tag>_<n>} ({@link #tag()}), and every frame command
 * reaches its part by that tag within one block ({@code @e[tag=<tag>_7,distance=..1,...]}). So:
 *
 * <ul>
 *   <li>spawn with {@link #summonCommand()}, run where the model goes (as a player, or with
 *       {@code execute positioned x y z in <world> run} in front);
 *   <li>run each frame's commands at the model's place: {@link #atModel(String)};
 *   <li>remove it with {@link #removeCommands()};
 *   <li>give every copy in the world a tag of its own ({@link #withTag(String)}, or fetch with
 *       another tag): two copies under one tag animate and remove each other's parts.
 * </ul>
 */
public final class Model {
  /** The tags the service makes: its sanitizer keeps ASCII letters, digits, '_' and '-'. */
  private static final Pattern TAG = Pattern.compile("[A-Za-z0-9_-]{1,100}");
  /** The root entity: a block display with no block, so that it shows nothing itself. */
  private static final String ROOT = "minecraft:block_display";

  /**
   * The most characters {@link #summonCommands()} puts in one command: the game's own limit on a
   * command (a command block's, 32,500), which docs/export-safety.md also holds every frame
   * command to; read from the vocabulary file the jar carries ({@code maxCommandChars}).
   */
  public static final int MAX_COMMAND_CHARS = VocabularyFile.integer("limits", "maxCommandChars");

  private final String tag;
  private final List<String> passengers;
  private final List<String> compounds;
  private final int partCount;
  private final Map<String, Animation> animations;
  private final Map<String, Animation> sounds;
  private final List<String> hitbox;
  private final int nesting;

  /** The model the model room read. */
  Model(ModelData data) {
    this(
        data.tag(),
        data.passengers(),
        data.compounds(),
        data.partCount(),
        tracks(data.animations()),
        tracks(data.sounds()),
        data.hitbox(),
        data.nesting());
  }

  private Model(
      String tag,
      List<String> passengers,
      List<String> compounds,
      int partCount,
      Map<String, Animation> animations,
      Map<String, Animation> sounds,
      List<String> hitbox,
      int nesting) {
    this.tag = tag;
    this.passengers = List.copyOf(passengers);
    this.compounds = List.copyOf(compounds);
    this.partCount = partCount;
    this.animations = Collections.unmodifiableMap(new LinkedHashMap<>(animations));
    this.sounds = Collections.unmodifiableMap(new LinkedHashMap<>(sounds));
    this.hitbox = List.copyOf(hitbox);
    this.nesting = nesting;
  }

  /**
   * The model of an export document's text (a saved copy, or one read elsewhere), after
   * {@link ExportSafety#check(String)}: published, or fetched with any tag, every selector
   * reaching only tags the model's own parts carry; {@link #parse(String, String)} names the tag.
   *
   * @param json the export document's text, {@code {"content": {...}}}
   * @return its model
   * @throws UnsafeExportException for an export outside the display-model vocabulary
   * @throws ExportServiceException for a document that is not an export
   */
  public static Model parse(String json) {
    Object document = ExportDocuments.parse(Objects.requireNonNull(json, "json"), DocumentOrigin.CALLER_TEXT);
    ExportDocuments.requireExport(document, DocumentOrigin.CALLER_TEXT);
    ExportSafety.check(document, null, DocumentOrigin.CALLER_TEXT, null);
    return ExportDocuments.model(document, DocumentOrigin.CALLER_TEXT);
  }

  /**
   * The model of an export document's text fetched with {@code tag}, after
   * {@link ExportSafety#check(String, String)}: every selector's tag must begin with it.
   *
   * @param json the export document's text, {@code {"content": {...}}}
   * @param tag the tag it was fetched with, as the service made it (never empty)
   * @return its model
   * @throws UnsafeExportException for an export outside the display-model vocabulary
   * @throws ExportServiceException for a document that is not an export
   * @throws IllegalArgumentException when {@code tag} is empty
   */
  public static Model parse(String json, String tag) {
    Objects.requireNonNull(tag, "tag");
    if (tag.isEmpty()) throw new IllegalArgumentException("The tag an export was fetched with is never empty.");
    Object document = ExportDocuments.parse(Objects.requireNonNull(json, "json"), DocumentOrigin.CALLER_TEXT);
    ExportDocuments.requireExport(document, DocumentOrigin.CALLER_TEXT);
    ExportSafety.check(document, tag, DocumentOrigin.CALLER_TEXT, null);
    return ExportDocuments.model(document, DocumentOrigin.CALLER_TEXT);
  }

  /**
   * The model of an export document's text WITHOUT the safety check, for tools that inspect
   * exports (never for a server that runs them). Throws {@link ExportServiceException} for a
   * document that is not an export.
   *
   * @param json the export document's text, {@code {"content": {...}}}
   * @return its model
   * @throws ExportServiceException for a document that is not an export
   */
  public static Model parseUnchecked(String json) {
    Object document = ExportDocuments.parse(Objects.requireNonNull(json, "json"), DocumentOrigin.CALLER_TEXT);
    return ExportDocuments.model(document, DocumentOrigin.CALLER_TEXT);
  }

  /**
   * The model's tag, as its parts carry it ({@code <tag>_<n>}): the tag the export was fetched
   * with, or {@code [MODELSERVERTAG]} in a published document; null when no part has one.
   *
   * @return the model's tag, as its parts carry it ({@code <tag>_<n>}): the tag the export was
   * fetched with, or {@code [MODELSERVERTAG]} in a published document; null when no part has one
   */
  public String tag() {
    return tag;
  }

  /** {@return display entities in {@code passengers}, nested ones included} */
  public int partCount() {
    return partCount;
  }

  /**
   * One command that spawns the whole model where it runs: a root block display with no block
   * (it shows nothing), carrying {@link #tag()}, with every passenger of the export riding it.
   * Run it as a player, a command block, or with {@code execute positioned ... run} in front.
   *
   * @return one command that spawns the whole model where it runs: a root block display with no
   * block (it shows nothing), carrying {@link #tag()}, with every passenger of the export riding it
   */
  public String summonCommand() {
    return summonOf(passengers);
  }

  /** The summon of a root carrying the model's tag with {@code riders} (passenger strings). */
  private String summonOf(List<String> riders) {
    StringBuilder command = new StringBuilder("summon ").append(ROOT).append(" ~ ~ ~ {");
    if (tag != null) command.append("Tags:[\"").append(tag).append("\"],");
    command.append("Passengers:[").append(String.join(",", riders)).append("]}");
    return command.toString();
  }

  /**
   * The passengers of {@link #summonCommand()} one by one: each entity compound that rides the
   * root, with its own nested passengers, as the export writes it (in order). A plugin that
   * builds its own summons starts from these; {@link #summonCommands(int)} does it for it.
   *
   * @return each passenger compound's SNBT, in the export's order
   */
  public List<String> passengers() {
    return compounds;
  }

  /**
   * {@link #summonCommand()} cut into commands of at most {@link #MAX_COMMAND_CHARS} characters:
   * see {@link #summonCommands(int)}.
   *
   * @return the summons that together spawn the whole model
   */
  public List<String> summonCommands() {
    return summonCommands(MAX_COMMAND_CHARS);
  }

  /**
   * The model spawned by several commands of at most {@code maxChars} characters each, for a
   * model whose {@link #summonCommand()} is longer than what the caller may run in one command.
   * Each is a summon of a root like {@link #summonCommand()}'s (a block display with no block,
   * carrying {@link #tag()}) with as many whole {@link #passengers()} as fit, in order; one
   * command when all fit. Run every one at the same place: the frame commands, {@link
   * #atModel(String)} and {@link #removeCommands()} reach the parts under every root alike.
   *
   * @param maxChars the most characters in one command
   * @return the summons that together spawn the whole model
   * @throws IllegalArgumentException when one passenger alone does not fit in {@code maxChars}
   */
  public List<String> summonCommands(int maxChars) {
    String empty = summonOf(List.of());
    List<String> commands = new ArrayList<>();
    List<String> batch = new ArrayList<>();
    int length = empty.length();
    for (String passenger : compounds) {
      int more = passenger.length() + (batch.isEmpty() ? 0 : 1);
      if (empty.length() + passenger.length() > maxChars) {
        throw new IllegalArgumentException(
            "A passenger of " + passenger.length() + " characters does not fit in a summon of " + maxChars);
      }
      if (length + more > maxChars) {
        commands.add(summonOf(batch));
        batch.clear();
        length = empty.length();
        more = passenger.length();
      }
      batch.add(passenger);
      length += more;
    }
    if (!batch.isEmpty() || commands.isEmpty()) commands.add(summonOf(batch));
    return commands;
  }

  /**
   * {@code command} run at the model's place, where its frame commands find its parts (they
   * select them within {@code distance=..1} of where they run): {@code execute at} the root.
   * Run frame and sound commands this way, e.g. from the console.
   *
   * @param command a command of this model (a frame's or a sound's)
   * @return {@code command} run at the model's place, where its frame commands find its parts (they
   * select them within {@code distance=..1} of where they run): {@code execute at} the root
   */
  public String atModel(String command) {
    Objects.requireNonNull(command, "command");
    return "execute at @e[type=" + ROOT + ",tag=" + requireTag() + ",limit=1] run " + command;
  }

  /**
   * The commands that remove this copy: its parts first (deepest first), then the root. Every
   * entity that carries {@link #tag()} as its root goes, wherever it is, so each copy needs a
   * tag of its own.
   *
   * @return the commands that remove this copy: its parts first (deepest first), then the root
   */
  public List<String> removeCommands() {
    String root = "@e[type=" + ROOT + ",tag=" + requireTag() + "]";
    List<String> commands = new ArrayList<>();
    for (int depth = nesting; depth >= 1; depth--) {
      commands.add("execute as " + root + " " + "on passengers ".repeat(depth) + "run kill @s");
    }
    commands.add("kill " + root);
    return commands;
  }

  /** {@return the hitbox's commands ({@code content.hitbox}, summons of interactions); empty when none} */
  public List<String> hitboxCommands() {
    return hitbox;
  }

  /** {@return the names of the animations ({@code datapack.anim_keyframes}), in the export's order} */
  public Set<String> animationNames() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(animations.keySet()));
  }

  /** {@return the names of the sound tracks ({@code datapack.sound_keyframes}), in the export's order} */
  public Set<String> soundNames() {
    return Collections.unmodifiableSet(new LinkedHashSet<>(sounds.keySet()));
  }

  /**
   * The animation {@code name} of {@code anim_keyframes}, or null when there is none.
   *
   * @param name the name
   * @return the animation {@code name} of {@code anim_keyframes}, or null when there is none
   */
  public Animation animation(String name) {
    return animations.get(name);
  }

  /**
   * The sound track {@code name} of {@code sound_keyframes}, or null when there is none.
   *
   * @param name the name
   * @return the sound track {@code name} of {@code sound_keyframes}, or null when there is none
   */
  public Animation sound(String name) {
    return sounds.get(name);
  }

  /**
   * The same model under the tag {@code newTag}, without another request: every entity tag and
   * every selector's {@code tag=} argument that carries {@link #tag()} carries {@code newTag}
   * instead, and nothing else changes. {@code newTag} is 1 to 100 of ASCII letters, digits,
   * '_' and '-' (what the service itself makes of a tag).
   *
   * @param newTag the tag of the copy
   * @return the same model under the tag {@code newTag}, without another request: every entity tag
   * and every selector's {@code tag=} argument that carries {@link #tag()} carries {@code newTag}
   * instead, and nothing else changes
   */
  public Model withTag(String newTag) {
    Objects.requireNonNull(newTag, "newTag");
    if (!TAG.matcher(newTag).matches()) {
      throw new IllegalArgumentException(
          "A tag is 1 to 100 ASCII letters, digits, '_' and '-', got \"" + newTag + "\"");
    }
    String from = requireTag();
    List<String> rewritten = new ArrayList<>(passengers.size());
    for (String passenger : passengers) rewritten.add(ModelTags.inPassengers(passenger, from, newTag));
    List<String> compoundsRewritten = new ArrayList<>(compounds.size());
    for (String compound : compounds) compoundsRewritten.add(ModelTags.inPassengers(compound, from, newTag));
    List<String> hitboxRewritten = new ArrayList<>(hitbox.size());
    for (String command : hitbox) hitboxRewritten.add(ModelTags.inCommand(command, from, newTag));
    return new Model(
        newTag,
        rewritten,
        compoundsRewritten,
        partCount,
        rewriteAll(animations, from, newTag),
        rewriteAll(sounds, from, newTag),
        hitboxRewritten,
        nesting);
  }

  private static Map<String, Animation> rewriteAll(Map<String, Animation> tracks, String from, String to) {
    Map<String, Animation> rewritten = new LinkedHashMap<>();
    tracks.forEach((name, track) -> rewritten.put(name, track.map(text -> ModelTags.inCommand(text, from, to))));
    return rewritten;
  }

  private static Map<String, Animation> tracks(Map<String, ModelData.Track> read) {
    Map<String, Animation> tracks = new LinkedHashMap<>();
    read.forEach((name, track) -> tracks.put(name, new Animation(track)));
    return tracks;
  }

  private String requireTag() {
    if (tag == null) throw new IllegalStateException("No part of this model carries a tag <tag>_<n>");
    return tag;
  }

  @Override
  public String toString() {
    return "Model[tag "
        + tag
        + ", "
        + partCount
        + " parts, animations "
        + animations.keySet()
        + ", sounds "
        + sounds.keySet()
        + "]";
  }
}
