package dev.exportservice.client.internal.model;

import java.util.List;
import java.util.Map;

/**
 * What an export's model is, as read from its document: the model's tag (null when no part
 * carries one), the {@code passengers} strings as the export writes them, each top-level
 * passenger compound on its own, the display entities and how deep they ride, the animations and
 * sounds by name (in the export's order), and the hitbox's commands.
 *
 * @param tag the tag the parts carry as {@code <tag>_<n>}, or null
 * @param passengers the export's passenger strings
 * @param compounds each top-level passenger compound's text
 * @param partCount display entities, nested ones included
 * @param nesting levels of passengers riding the root
 * @param animations {@code anim_keyframes} by name
 * @param sounds {@code sound_keyframes} by name
 * @param hitbox the hitbox's commands
 */
public record ModelData(
    String tag,
    List<String> passengers,
    List<String> compounds,
    int partCount,
    int nesting,
    Map<String, Track> animations,
    Map<String, Track> sounds,
    List<String> hitbox) {

  /**
   * One animation or sound track: its key, the name the editor shows (null: none), the
   * {@code meta} numbers as written (the model applies their defaults), and its frames.
   *
   * @param name the key in the export
   * @param displayName {@code meta}'s {@code name}, or null
   * @param stepTicks {@code meta}'s {@code stepTicks}, or 1
   * @param durationTicks {@code meta}'s {@code durationTicks}, or 0
   * @param frames frame index to commands
   */
  public record Track(
      String name, String displayName, int stepTicks, int durationTicks, Map<Integer, List<String>> frames) {}
}
