package dev.exportservice.client.internal.safety;

/**
 * Thrown inside the check of one string of an export: why it is outside the display-model
 * vocabulary and what was found. The walk over the document adds the path ({@link Refusal}).
 */
final class UnsafeContent extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a checked field is outside the vocabulary; the names are the service's reasons. */
  enum Reason {
    /** A command other than the ones that animate a model. */
    COMMAND,
    /** An entity other than a display entity (or, in a hitbox, an interaction). */
    ENTITY,
    /** A key the entity does not have, or {@code Passengers} where no passenger belongs. */
    KEY,
    /** A selector that could reach something other than the model's own parts. */
    SELECTOR,
    /** Text that does not parse as the editor writes it. */
    SYNTAX,
    /** A control character (a line break starts a second command). */
    CONTROL,
    /** A command longer than the game's limit. */
    LENGTH,
    /** SNBT nested deeper than the limit. */
    DEPTH,
    /** A checked field of another JSON type than the editor writes. */
    SHAPE
  }

  final Reason reason;
  final String found;

  UnsafeContent(Reason reason, String found) {
    super(reason + ": " + found, null, false, false); // no stack trace: a verdict, not a bug
    this.reason = reason;
    this.found = found;
  }
}
