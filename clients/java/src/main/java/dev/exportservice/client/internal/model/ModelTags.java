package dev.exportservice.client.internal.model;

import dev.exportservice.client.internal.snbt.Selector;
import dev.exportservice.client.internal.snbt.SnbtReader;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one rule for a model's tag: where it sits and how another takes its place. A model's tag
 * {@code T} sits in the entity tags of its parts ({@code Tags:["T_0"]}, found by the SNBT parser
 * wherever a compound has {@code Tags}) and in the {@code tag=} arguments of the selectors that
 * reach them ({@code @e[type=item_display,tag=T_0,distance=..1]}, found by splitting a command's
 * words and a selector's arguments as the check does). A tag "carries" {@code T} when it is
 * {@code T} or starts with {@code T_}. Nothing else in the text is touched, a text display's
 * words included; a text that does not parse is left as it is.
 */
public final class ModelTags {
  /** A part's tag: the model's tag, '_', the part's number. */
  private static final Pattern PART_TAG = Pattern.compile("(.+)_[0-9]+");
  private static final String TAG_ARGUMENT = "tag=";

  private ModelTags() {}

  /**
   * The model's tag named by a part's tag {@code <tag>_<n>}, or null when it is not one.
   *
   * @param partTag an entity tag
   * @return the model's tag it names, or null
   */
  public static String modelTagOf(String partTag) {
    Matcher part = PART_TAG.matcher(partTag);
    return part.matches() ? part.group(1) : null;
  }

  /**
   * Whether the tag {@code value} carries the model's tag {@code tag}.
   *
   * @param value an entity tag, or a selector's {@code tag=} value
   * @param tag the model's tag
   * @return whether it is {@code tag} or starts with {@code tag_}
   */
  public static boolean carries(String value, String tag) {
    return value.equals(tag) || (value.startsWith(tag) && value.startsWith("_", tag.length()));
  }

  /**
   * A passenger string (compounds, as they go inside {@code Passengers:[...]}) with every entity
   * tag carrying {@code from} carrying {@code to} instead.
   *
   * @param passengers the passenger string
   * @param from the model's tag
   * @param to the new tag
   * @return the rewritten string
   */
  public static String inPassengers(String passengers, String from, String to) {
    if (from.equals(to) || !passengers.contains(from)) return passengers;
    SnbtReader.Reading reading;
    try {
      reading = SnbtReader.read(passengers);
    } catch (SnbtReader.Unreadable notSnbt) {
      return passengers;
    }
    return apply(passengers, entityTags(passengers, reading.tags(), from), from, to);
  }

  /**
   * A command (a frame's, a sound's or the hitbox's) with every selector's {@code tag=} and every
   * entity tag in its compound carrying {@code from} carrying {@code to} instead.
   *
   * @param command the command
   * @param from the model's tag
   * @param to the new tag
   * @return the rewritten command
   */
  public static String inCommand(String command, String from, String to) {
    if (from.equals(to) || !command.contains(from)) return command;
    List<Integer> sites = new ArrayList<>();
    // Words are separated by one space, as the check reads them; the compound, if any, is the rest.
    for (int start = 0; start < command.length(); ) {
      int space = command.indexOf(' ', start);
      int end = space < 0 ? command.length() : space;
      if (start == end) {
        start = end + 1;
        continue;
      }
      char first = command.charAt(start);
      if (first == '{') {
        try {
          sites.addAll(entityTags(command, SnbtReader.readCompoundToEnd(command, start).tags(), from));
        } catch (SnbtReader.Unreadable notSnbt) {
          // not data the model can read: left as it is
        }
        break;
      }
      if (end - start > 2 && first == '@' && command.charAt(start + 2) == '[') {
        selectorTags(command.substring(start, end), start, from, sites);
      }
      start = end + 1;
    }
    return apply(command, sites, from, to);
  }

  /** Where the entity tags that carry {@code from} start, as the parser found them. */
  private static List<Integer> entityTags(String text, List<SnbtReader.TagSite> tags, String from) {
    List<Integer> sites = new ArrayList<>();
    for (SnbtReader.TagSite tag : tags) {
      // The tag's own characters must spell `from`: a tag that only decodes to it is not rewritten.
      if (carries(tag.value(), from) && text.startsWith(from, tag.start())) sites.add(tag.start());
    }
    return sites;
  }

  /** Where the {@code tag=} values that carry {@code from} start in the selector at {@code offset}. */
  private static void selectorTags(String selector, int offset, String from, List<Integer> sites) {
    List<int[]> arguments = Selector.arguments(selector, 3);
    if (arguments == null) return;
    for (int[] argument : arguments) {
      String text = selector.substring(argument[0], argument[1]);
      if (!text.startsWith(TAG_ARGUMENT)) continue;
      int value = TAG_ARGUMENT.length() + (text.startsWith("!", TAG_ARGUMENT.length()) ? 1 : 0);
      if (carries(text.substring(value), from)) sites.add(offset + argument[0] + value);
    }
  }

  /** {@code text} with {@code from} replaced by {@code to} at each site (ascending). */
  private static String apply(String text, List<Integer> sites, String from, String to) {
    if (sites.isEmpty()) return text;
    StringBuilder out = new StringBuilder(text.length() + sites.size() * Math.max(0, to.length() - from.length()));
    int copied = 0;
    for (int site : sites) {
      out.append(text, copied, site).append(to);
      copied = site + from.length();
    }
    return out.append(text, copied, text.length()).toString();
  }
}
