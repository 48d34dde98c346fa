package dev.exportservice.client;

import java.security.SecureRandom;

/**
 * A tag of its own for each copy of a model: what the client asks for when the caller names
 * none. Frames of one export reach every part that carries the tag they were fetched with, so two
 * copies under one tag (the service's default {@code model}, shared by every plugin that sends
 * none) move, change and remove each other's parts; a tag no other fetch uses keeps each copy to
 * itself (docs/api.md, "Isolation between models"). The check cannot close this: only the tag
 * can. The same form as the TypeScript client's.
 */
final class CopyTag {
  /** What every generated tag starts with, so that a log shows which tags the client made. */
  static final String PREFIX = "copy_";
  /** Random bytes after the prefix: 96 bits, so two copies never meet by chance. */
  private static final int RANDOM_BYTES = 12;
  private static final SecureRandom RANDOM = new SecureRandom();

  private CopyTag() {}

  /**
   * A new tag: {@code copy_} and 24 random hex digits, 29 characters the service keeps as they
   * are. Of one length, so that no generated tag followed by {@code _} is the start of another's
   * part tags.
   */
  static String next() {
    byte[] bytes = new byte[RANDOM_BYTES];
    RANDOM.nextBytes(bytes);
    StringBuilder tag = new StringBuilder(PREFIX);
    for (byte b : bytes) tag.append(String.format("%02x", b & 0xff));
    return tag.toString();
  }
}
