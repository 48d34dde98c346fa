package dev.exportservice.client;

import java.security.SecureRandom;

/**
 * A tag of its own for each copy of a model: what the client asks for when the caller names
 * none. Frames of one export reach every part that carries the tag they were fetched with, so two
 * copies under one tag (the service's default {@code model}, shared by every plugin that sends
 * none) move, change and remove each other's parts; a tag no other fetch uses keeps each copy to
 * itself. The check cannot close this (docs/export-safety.md): only the tag can.
 */
final class CopyTag {
  /** What every generated tag starts with, so that a log shows which tags the client made. */
  static final String PREFIX = "copy";
  /** Random hex digits after the prefix: 64 bits, never a collision among a server's copies. */
  private static final int HEX_DIGITS = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private CopyTag() {}

  /**
   * A new tag: {@code copy} and 16 random hex digits, 20 characters the service keeps as they
   * are. Of one length and without {@code _}, so that no generated tag followed by {@code _} is the
   * start of another's part tags.
   */
  static String next() {
    String digits = Long.toHexString(RANDOM.nextLong());
    return PREFIX + "0".repeat(HEX_DIGITS - digits.length()) + digits;
  }
}
