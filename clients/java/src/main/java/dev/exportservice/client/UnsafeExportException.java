package dev.exportservice.client;

/**
 * An export outside the display-model vocabulary (docs/export-safety.md): somewhere a plugin
 * runs (a passenger, a frame's or a sound's command, the hitbox), it holds something that is not
 * part of a display model, such as {@code op @a}, a command block, or a second line.
 * {@link #path()} says where, in the spelling the service uses
 * ({@code content.datapack.anim_keyframes.open.7[2]}), {@link #found()} what was found there (a
 * command word, an entity id, a key), and {@link #reason()} why. {@link #code()} is
 * {@code unsafe_export}, the service's code for the same refusal.
 */
public class UnsafeExportException extends ExportException {
  private static final long serialVersionUID = 1L;

  /** The error code, as the service spells it. */
  public static final String CODE = "unsafe_export";

  /** Where, as a JSON path. */
  private final String path;
  /** Why, as the service names it. */
  private final String reason;
  /** What was found there. */
  private final String found;

  /**
   * A refusal of an export.
   *
   * @param message one sentence naming the path and what was found
   * @param path where, as a JSON path
   * @param reason why: {@code command}, {@code entity}, {@code key}, {@code selector},
   *     {@code syntax}, {@code control}, {@code length}, {@code depth} or {@code shape}
   * @param found what was found there
   * @param status the HTTP status of the response that carried the export (200), or 0 for a
   *     document checked on its own
   * @param rateLimit the rate-limit state, or null when the response carried none
   */
  public UnsafeExportException(
      String message, String path, String reason, String found, int status, RateLimit rateLimit) {
    super(message, status, CODE, rateLimit, "", null);
    this.path = path;
    this.reason = reason;
    this.found = found;
  }

  /** {@return where the export leaves the vocabulary, e.g. {@code content.passengers[0]}} */
  public String path() {
    return path;
  }

  /** {@return why: {@code command}, {@code entity}, {@code key}, {@code selector}, {@code syntax}, {@code control}, {@code length}, {@code depth} or {@code shape}} */
  public String reason() {
    return reason;
  }

  /** {@return what was found there: a command word, an entity id, a key, a selector ...} */
  public String found() {
    return found;
  }
}
