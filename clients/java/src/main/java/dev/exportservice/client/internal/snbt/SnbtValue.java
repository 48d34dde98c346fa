package dev.exportservice.client.internal.snbt;

import java.util.List;
import java.util.Map;

/**
 * A parsed SNBT value ({@link SnbtReader}): the TypeScript check's {@code SnbtValue}
 * (src/export-safety/syntax/snbt-value.ts). The subclasses are listed, not inferred: javac writes
 * inferred ones in the order it meets their sources, which differs between the JDK route and
 * Maven, and the two jars are held to be byte for byte the same.
 */
public sealed interface SnbtValue permits SnbtValue.Compound, SnbtValue.ListOf, SnbtValue.Text, SnbtValue.Array {
  /**
   * A compound: its members in order, repeated names included (every one is checked). In an
   * entity's compound as the check reads it, a member's value is null but for {@code id},
   * {@code Tags} and {@code Passengers}.
   *
   * @param members its members, in document order
   */
  record Compound(List<Map.Entry<String, SnbtValue>> members) implements SnbtValue {
    /**
     * The value of the last member called {@code name} (the one the game keeps), or null.
     *
     * @param name the member's name
     * @return its value, or null
     */
    public SnbtValue get(String name) {
      for (int i = members.size() - 1; i >= 0; i--) {
        if (members.get(i).getKey().equals(name)) return members.get(i).getValue();
      }
      return null;
    }
  }

  /**
   * A list.
   *
   * @param items its items, in order
   */
  record ListOf(List<SnbtValue> items) implements SnbtValue {}

  /**
   * A quoted string (its decoded value) or an unquoted word (a number with its suffix, a boolean,
   * a bare name).
   *
   * @param value the string's decoded value, or the word
   * @param quoted whether it was quoted
   */
  record Text(String value, boolean quoted) implements SnbtValue {}

  /** {@code [B;...]}, {@code [I;...]}, {@code [L;...]}: numbers only, nothing a reader needs. */
  record Array() implements SnbtValue {}
}
