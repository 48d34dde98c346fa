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
    SHAPE,
    /** A root member other than {@code content}, or a name that only looks like a checked one. */
    MEMBER,
    /** JSON text with a component that reads the world ({@code selector}, {@code nbt}, {@code score}). */
    TEXT,
    /** A quoted string that a plugin's own reader would cut into other entities. */
    READER,
    /** More of something than a model has (the tags of its parts). */
    COUNT
  }

  final Reason reason;
  final String found;
  /** For {@code length}: whether the passenger strings together (not a command) were too long. */
  final boolean ofPassengers;

  UnsafeContent(Reason reason, String found) {
    this(reason, found, false);
  }

  UnsafeContent(Reason reason, String found, boolean ofPassengers) {
    super(reason + ": " + found, null, false, false); // no stack trace: a verdict, not a bug
    this.reason = reason;
    this.found = found;
    this.ofPassengers = ofPassengers;
  }
}
