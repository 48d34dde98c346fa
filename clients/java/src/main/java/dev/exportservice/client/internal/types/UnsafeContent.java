package dev.exportservice.client.internal.types;

/**
 * Thrown inside the check of one string of an export: why it is outside the display-model
 * vocabulary and what was found. The walk over the document adds the path ({@link Refusal}).
 */
public final class UnsafeContent extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Why a checked field is outside the vocabulary; the names are the service's reasons. */
  public enum Reason {
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
    COUNT,
    /** A value of another type than the game reads at that key ({@code found}: where, in the SNBT). */
    TYPE,
    /** An item component a display model does not carry ({@code found}: its name). */
    COMPONENT,
    /** The tag placeholder where the editor never writes it ({@code found}: where, in the SNBT). */
    PLACEHOLDER,
    /** An SNBT escape that Minecraft reads differently by version ({@code found}: the escape). */
    ESCAPE,
    /** A member of {@code content} outside its type's bounds ({@code found}: the member). */
    VALUE
  }

  public final Reason reason;
  public final String found;
  /**
   * The message that says it, when not the reason's own: {@code lengthPassengers} (the passenger
   * strings together were too long), {@code readerRun} (a plugin's reader reads otherwise).
   */
  public final String message;

  public UnsafeContent(Reason reason, String found) {
    this(reason, found, null);
  }

  public UnsafeContent(Reason reason, String found, String message) {
    super(reason + ": " + found, null, false, false); // no stack trace: a verdict, not a bug
    this.reason = reason;
    this.found = found;
    this.message = message;
  }
}
