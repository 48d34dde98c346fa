package dev.exportservice.client;

import java.util.Locale;
import java.util.Objects;

/**
 * The display-model vocabulary (docs/export-safety.md): what an export may ask a server to run.
 * An export is a display model (display entities, the commands that move them, the sounds they
 * play); anything else a server would run is refused. The service checks every export when it is
 * published; this is the same check, rule for rule and path for path, for a client that talks to
 * a misconfigured or older service, or reads a saved copy.
 *
 * <p>{@link ExportClient} runs it on every fetched export unless built with
 * {@link ExportClient.Builder#allowUnsafeExports(boolean) allowUnsafeExports(true)}, and
 * {@link Model#parse(String)} always does.
 */
public final class ExportSafety {
  private ExportSafety() {}

  /**
   * Checks an export document's text, as published (with placeholders) or as fetched (tags
   * substituted). A document that is not of the form {@code {"content": {...}}} holds nothing a
   * plugin runs and passes.
   *
   * @param json the document's text
   * @throws UnsafeExportException when the export is outside the vocabulary: its
   *     {@link UnsafeExportException#path()} is the path the service names
   * @throws ExportServiceException when the text is not JSON
   */
  public static void check(String json) {
    check(ModelReader.parseJson(Objects.requireNonNull(json, "json"), 0), 0, null);
  }

  /** Checks a parsed document; {@code status} and {@code rateLimit} go into the exception. */
  static void check(Object document, int status, RateLimit rateLimit) {
    SafetyCheck.Refusal refusal = SafetyCheck.find(document);
    if (refusal == null) return;
    UnsafeContent content = refusal.content();
    throw new UnsafeExportException(
        refusal.path() + " " + describe(content) + ".",
        refusal.path(),
        content.reason.name().toLowerCase(Locale.ROOT),
        content.found,
        status,
        rateLimit);
  }

  private static String describe(UnsafeContent content) {
    String found = content.found;
    switch (content.reason) {
      case COMMAND:
        return "runs the command \"" + found + "\", which is not part of a display model";
      case ENTITY:
        return "summons the entity \"" + found + "\", which is not part of a display model";
      case KEY:
        return "sets the entity key \"" + found + "\", which is not part of a display model";
      case SELECTOR:
        return "targets \"" + found + "\", which does not reach only the model's own parts";
      case SYNTAX:
        return "does not parse as an export writes it: unexpected \"" + found + "\"";
      case CONTROL:
        return "holds the control character " + found + ", and a command is one line";
      case LENGTH:
        return "is a command of " + found + " characters, longer than the game's " + Vocabulary.MAX_COMMAND_CHARS;
      case DEPTH:
        return "nests SNBT deeper than " + Snbt.MAX_DEPTH + " levels (found \"" + found + "\")";
      default:
        return "is a JSON " + found + ", not what an export writes there";
    }
  }
}
