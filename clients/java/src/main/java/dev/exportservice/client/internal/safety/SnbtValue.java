package dev.exportservice.client.internal.safety;

import java.util.List;
import java.util.Map;

/**
 * A parsed SNBT value as the check keeps it: what the checks need of it, no more (the
 * TypeScript check's {@code SnbtValue}, src/export-safety/snbt.ts). The subclasses are listed,
 * not inferred: javac writes inferred ones in the order it meets their sources, which differs
 * between the JDK route and Maven, and the two jars are held to be byte for byte the same.
 */
sealed interface SnbtValue permits SnbtValue.Compound, SnbtValue.ListOf, SnbtValue.Text, SnbtValue.Array {
  /**
   * A compound: its members in order, repeated names included. In an entity's compound a
   * member's value is null but for {@code id}, {@code Tags} and {@code Passengers}.
   */
  record Compound(List<Map.Entry<String, SnbtValue>> members) implements SnbtValue {}

  /** A list. */
  record ListOf(List<SnbtValue> items) implements SnbtValue {}

  /** A quoted string or an unquoted word (a number, a boolean, an unquoted string). */
  record Text(String value, boolean quoted) implements SnbtValue {}

  /** {@code [B;...]}, {@code [I;...]}, {@code [L;...]}. */
  record Array() implements SnbtValue {}
}
