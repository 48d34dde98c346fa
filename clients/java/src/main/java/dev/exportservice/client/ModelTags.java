package dev.exportservice.client;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a model's tag sits in its text, and how to put another there: the entity tags of its
 * parts ({@code Tags:["gate_0"]}) and the {@code tag=} arguments of the selectors that reach
 * them ({@code @e[type=item_display,tag=gate_0,distance=..1]}). A tag "carries" the model's tag
 * {@code T} when it is {@code T} or starts with {@code T_}; nothing else in the text is touched,
 * a text display's words included.
 */
final class ModelTags {
  /** A part's tag: the model's tag, '_', the part's number. */
  private static final Pattern PART_TAG = Pattern.compile("(.+)_[0-9]+");

  private static final Pattern TAGS_LIST = Pattern.compile("\\bTags\\s*:\\s*\\[");
  private static final Pattern SELECTOR = Pattern.compile("@[aenprs]\\[");

  private ModelTags() {}

  /** The model's tag named by a part's tag {@code <tag>_<n>}, or null when it is not one. */
  static String modelTagOf(String partTag) {
    Matcher part = PART_TAG.matcher(partTag);
    return part.matches() ? part.group(1) : null;
  }

  /** {@code text} with every tag carrying {@code from} carrying {@code to} instead. */
  static String replace(String text, String from, String to) {
    if (from.equals(to) || !text.contains(from)) return text;
    return replaceInSelectors(replaceInTagLists(text, from, to), from, to);
  }

  private static String replaceInTagLists(String text, String from, String to) {
    StringBuilder out = new StringBuilder(text.length());
    Matcher list = TAGS_LIST.matcher(text);
    int copied = 0;
    while (list.find(copied)) {
      out.append(text, copied, list.end());
      int at = list.end();
      // The list's elements: quoted strings or bare words, until the ']' outside them.
      while (at < text.length() && text.charAt(at) != ']') {
        char c = text.charAt(at);
        if (c == '"' || c == '\'') {
          int end = endOfQuoted(text, at);
          String value = text.substring(at + 1, end - 1);
          out.append(c).append(carries(value, from) ? to + value.substring(from.length()) : value);
          out.append(c);
          at = end;
        } else if (Snbt.isWordChar(c)) {
          int end = at;
          while (end < text.length() && Snbt.isWordChar(text.charAt(end))) end++;
          String value = text.substring(at, end);
          out.append(carries(value, from) ? to + value.substring(from.length()) : value);
          at = end;
        } else {
          out.append(c);
          at++;
        }
      }
      copied = at;
    }
    return out.append(text, copied, text.length()).toString();
  }

  private static String replaceInSelectors(String text, String from, String to) {
    Pattern argument =
        Pattern.compile(
            "((?:^|,)\\s*tag\\s*=\\s*!?\\s*)" + Pattern.quote(from) + "(?=(?:_[^,\\s]*)?\\s*(?:,|$))");
    String replacement = "$1" + Matcher.quoteReplacement(to);
    StringBuilder out = new StringBuilder(text.length());
    Matcher selector = SELECTOR.matcher(text);
    int copied = 0;
    while (selector.find(copied)) {
      int start = selector.end();
      int end = endOfSelector(text, start);
      out.append(text, copied, start);
      out.append(argument.matcher(text.substring(start, end)).replaceAll(replacement));
      copied = end;
    }
    return out.append(text, copied, text.length()).toString();
  }

  /** Whether the tag {@code value} carries the model's tag {@code tag}. */
  static boolean carries(String value, String tag) {
    return value.equals(tag) || (value.startsWith(tag) && value.startsWith("_", tag.length()));
  }

  /** The index of the selector's closing ']' (brackets inside it, as in a placeholder, nest). */
  private static int endOfSelector(String text, int start) {
    int depth = 0;
    for (int at = start; at < text.length(); at++) {
      char c = text.charAt(at);
      if (c == '"' || c == '\'') {
        at = endOfQuoted(text, at) - 1;
      } else if (c == '[') {
        depth++;
      } else if (c == ']') {
        if (depth == 0) return at;
        depth--;
      }
    }
    return text.length();
  }

  /** The index just after the quoted string that starts at {@code start}. */
  private static int endOfQuoted(String text, int start) {
    char quote = text.charAt(start);
    for (int at = start + 1; at < text.length(); at++) {
      char c = text.charAt(at);
      if (c == '\\') at++;
      else if (c == quote) return at + 1;
    }
    return text.length();
  }
}
