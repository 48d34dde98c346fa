package dev.exportservice.client;

/**
 * A message made safe to show a player or write to a log: what a server or proxy sent may carry
 * line breaks (a forged second log line), ANSI escapes, bidirectional overrides (text that reads
 * differently than it is) and Minecraft's '§' formatting codes. Control characters and line or
 * paragraph separators become a space, invisible format characters (the bidirectional controls
 * among them) and '§' are dropped, and a message is cut to {@link #MAX_CHARS}.
 */
final class PlainText {
  /** Longer messages are cut: a message is a sentence, not a document. */
  static final int MAX_CHARS = 1000;

  private PlainText() {}

  /** {@code text} without control, format or bidirectional characters; null stays null. */
  static String of(String text) {
    if (text == null) return null;
    StringBuilder out = new StringBuilder(Math.min(text.length(), MAX_CHARS + 1));
    for (int at = 0; at < text.length() && out.length() <= MAX_CHARS; ) {
      int c = text.codePointAt(at);
      at += Character.charCount(c);
      switch (Character.getType(c)) {
        case Character.CONTROL:
        case Character.LINE_SEPARATOR:
        case Character.PARAGRAPH_SEPARATOR:
          if (out.length() > 0 && out.charAt(out.length() - 1) != ' ') out.append(' ');
          break;
        case Character.FORMAT:
        case Character.SURROGATE: // a lone half of a pair: not text
        case Character.UNASSIGNED:
          break;
        default:
          if (c != '\u00a7') out.appendCodePoint(c);
      }
    }
    String clean = out.toString().strip();
    return clean.length() > MAX_CHARS ? clean.substring(0, MAX_CHARS) + "…" : clean;
  }
}
