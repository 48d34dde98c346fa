package dev.exportservice.client;

import dev.exportservice.client.internal.model.ModelData;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * One animation (or sound track) of a {@link Model}: its frames, each a list of commands, and
 * when each frame shows. Frame {@code n} shows at tick {@code n × stepTicks()}, counted from the
 * start of the animation; between frames, and for frames the export leaves out, nothing runs.
 * Immutable and thread-safe.
 *
 * <p>Play it by calling {@link #commandsAt(int)} once per server tick, from 0 to
 * {@link #durationTicks()} inclusive, and running each command at the model's place
 * ({@link Model#atModel(String)}).
 */
public final class Animation {
  private final String name;
  private final String displayName;
  private final int stepTicks;
  private final int durationTicks;
  private final NavigableMap<Integer, List<String>> frames;

  /** The track the model room read. */
  Animation(ModelData.Track track) {
    this(track.name(), track.displayName(), track.stepTicks(), track.durationTicks(), track.frames());
  }

  private Animation(String name, String displayName, int stepTicks, int durationTicks, Map<Integer, List<String>> frames) {
    this.name = name;
    this.displayName = displayName == null ? name : displayName;
    this.stepTicks = Math.max(1, stepTicks);
    TreeMap<Integer, List<String>> sorted = new TreeMap<>();
    frames.forEach((index, commands) -> sorted.put(index, List.copyOf(commands)));
    this.frames = Collections.unmodifiableNavigableMap(sorted);
    int lastFrameTick = sorted.isEmpty() ? 0 : saturatedTick(sorted.lastKey(), this.stepTicks);
    // Never shorter than its last frame, so that playing it to the end runs every frame.
    this.durationTicks = Math.max(Math.max(0, durationTicks), lastFrameTick);
  }

  /** {@return the animation's key in the export, e.g. {@code open} or {@code default}} */
  public String name() {
    return name;
  }

  /** {@return the name the editor shows ({@code meta}'s {@code name}), or {@link #name()} without one} */
  public String displayName() {
    return displayName;
  }

  /** {@return ticks between two frames ({@code meta}'s {@code stepTicks}); 1 without one, never less} */
  public int stepTicks() {
    return stepTicks;
  }

  /**
   * The tick of the animation's end ({@code meta}'s {@code durationTicks}): the last frame shows
   * at or before it. Without {@code meta}, the tick of the last frame.
   *
   * @return the tick of the animation's end ({@code meta}'s {@code durationTicks}): the last frame
   * shows at or before it
   */
  public int durationTicks() {
    return durationTicks;
  }

  /**
   * The commands of the frame that shows at {@code tick} (0 is the start), in order; empty
   * between frames, for a frame the export leaves out, and outside 0 to {@link #durationTicks()}.
   *
   * @param tick ticks since the animation started
   * @return the commands of the frame that shows at {@code tick} (0 is the start), in order; empty
   * between frames, for a frame the export leaves out, and outside 0 to {@link #durationTicks()}
   */
  public List<String> commandsAt(int tick) {
    if (tick < 0 || tick % stepTicks != 0) return List.of();
    return frames.getOrDefault(tick / stepTicks, List.of());
  }

  /** {@return the indices of the frames the export has, ascending (frame {@code n} shows at {@code n × stepTicks()})} */
  public List<Integer> frameIndices() {
    return List.copyOf(frames.keySet());
  }

  /**
   * The ticks at which a frame shows, ascending: {@code n × stepTicks()} for each frame
   * {@code n} the export has. Walk these instead of every tick: {@code commandsAt(tick)} of each
   * is that frame's commands, and every other tick has none.
   *
   * @return the ticks of the frames the export has, ascending
   */
  public List<Integer> frameTicks() {
    List<Integer> ticks = new ArrayList<>(frames.size());
    for (int index : frames.keySet()) {
      long tick = (long) index * stepTicks;
      if (tick > Integer.MAX_VALUE) break; // past the last tick an int counts: never shown
      ticks.add((int) tick);
    }
    return Collections.unmodifiableList(ticks);
  }

  /** Every frame's commands, each copied through {@code rewrite}. */
  Animation map(UnaryOperator<String> rewrite) {
    TreeMap<Integer, List<String>> rewritten = new TreeMap<>();
    frames.forEach(
        (index, commands) -> {
          List<String> copy = new ArrayList<>(commands.size());
          for (String command : commands) copy.add(rewrite.apply(command));
          rewritten.put(index, copy);
        });
    return new Animation(name, displayName, stepTicks, durationTicks, rewritten);
  }

  private static int saturatedTick(int frame, int stepTicks) {
    long tick = (long) frame * stepTicks;
    return tick > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) tick;
  }

  @Override
  public String toString() {
    return "Animation["
        + name
        + ", "
        + frames.size()
        + " frames, every "
        + stepTicks
        + " ticks, "
        + durationTicks
        + " ticks long]";
  }
}
