package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sentences of refusals, as data: the vocabulary file's {@code messages}, one per reason (and
 * a few variants: {@code lengthName}, {@code lengthPassengers}, {@code lengthText}, {@code readerRun}), where
 * {@code {found}} is what was found and {@code {maxCommandChars}} and the like are the file's
 * limits. The service words its refusals from the same file, so both say the same sentence.
 */
public final class Messages {
  private static final Pattern SLOT = Pattern.compile("\\{(\\w+)\\}");
  private static final Map<?, ?> TEMPLATES = VocabularyFile.object("messages");

  private Messages() {}

  /**
   * The message {@code key} with {@code found} and the limits filled in, in one pass (a
   * {@code found} that holds {@code {found}} stays as it is).
   */
  public static String of(String key, String found) {
    Object template = TEMPLATES.get(key);
    if (!(template instanceof String)) throw new IllegalStateException(VocabularyFile.RESOURCE + " has no message " + key);
    Matcher slot = SLOT.matcher((String) template);
    StringBuilder out = new StringBuilder();
    while (slot.find()) {
      String name = slot.group(1);
      String value = name.equals("found") ? found : String.valueOf(VocabularyFile.integer("limits", name));
      slot.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    slot.appendTail(out);
    return out.toString();
  }
}
