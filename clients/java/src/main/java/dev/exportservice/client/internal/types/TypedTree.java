package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.snbt.SnbtValue;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Types applied to a value already read whole: JSON text (the JSON reader's output) and text
 * written as SNBT (a parsed tree). Only whether it matches is answered: a fault inside a text is
 * named at the text's own path, so the order a JSON reader keeps members in never changes a
 * verdict (src/export-safety/types/typed-tree.ts).
 */
public final class TypedTree {
  private TypedTree() {}

  /** Whether the SNBT tree {@code value} is of {@code type}. */
  public static boolean snbtMatches(ValueType type, SnbtValue value) {
    ValueType.Shape shape;
    if (value instanceof SnbtValue.Text text) shape = text.quoted() ? ValueType.Shape.QUOTED : ValueType.Shape.WORD;
    else if (value instanceof SnbtValue.Compound) shape = ValueType.Shape.COMPOUND;
    else if (value instanceof SnbtValue.ListOf) shape = ValueType.Shape.LIST;
    else shape = ValueType.Shape.ARRAY;
    ValueType chosen = type.pick(shape);
    if (chosen == null) return false;
    switch (chosen.kind) {
      case COMPOUND:
        if (!(value instanceof SnbtValue.Compound compound)) return false;
        for (Map.Entry<String, SnbtValue> member : compound.members()) {
          ValueType memberType = chosen.memberType(member.getKey());
          if (memberType == null || member.getValue() == null || !snbtMatches(memberType, member.getValue())) return false;
        }
        return true;
      case LIST:
        if (!(value instanceof SnbtValue.ListOf list)) return false;
        if (chosen.length != null && list.items().size() != chosen.length) return false;
        for (SnbtValue item : list.items()) if (!snbtMatches(chosen.of, item)) return false;
        return true;
      case TEXT:
        // Text written as SNBT inside text: read as the same grammar.
        return snbtMatches(chosen.of, value);
      default:
        return value instanceof SnbtValue.Text text && wordOrStringMatches(chosen, text.value());
    }
  }

  /** Whether the JSON value {@code value} (as the JSON reader returns it) is of {@code type}. */
  public static boolean jsonMatches(ValueType type, Object value) {
    if (value == null || value == dev.exportservice.client.internal.json.JsonObject.NULL) return false;
    if (value instanceof Number number) return jsonNumberMatches(type, number);
    ValueType.Shape shape =
        value instanceof List
            ? ValueType.Shape.LIST
            : value instanceof Map ? ValueType.Shape.COMPOUND : value instanceof String ? ValueType.Shape.QUOTED : ValueType.Shape.WORD;
    ValueType chosen = type.pick(shape);
    if (chosen == null) return false;
    switch (chosen.kind) {
      case COMPOUND:
        for (Map.Entry<?, ?> member : ((Map<?, ?>) value).entrySet()) {
          ValueType memberType = chosen.memberType((String) member.getKey());
          if (memberType == null || !jsonMatches(memberType, member.getValue())) return false;
        }
        return true;
      case LIST:
        List<?> items = (List<?>) value;
        if (chosen.length != null && items.size() != chosen.length) return false;
        for (Object item : items) if (!jsonMatches(chosen.of, item)) return false;
        return true;
      case TEXT:
        return jsonMatches(chosen.of, value);
      default:
        return wordOrStringMatches(chosen, String.valueOf(value));
    }
  }

  /**
   * A JSON number matches a number type whose suffixes include none, by its value (as JavaScript
   * reads it: a double): an integer type wants an integer in the int range and the type's own.
   */
  private static boolean jsonNumberMatches(ValueType type, Number number) {
    ValueType chosen = type.pick(ValueType.Shape.WORD);
    double value = number instanceof BigDecimal decimal ? decimal.doubleValue() : number.doubleValue();
    if (chosen == null || chosen.kind != ValueType.Kind.NUMBER || !chosen.suffixes.contains("") || !Double.isFinite(value)) {
      return false;
    }
    if (!chosen.integer) return true;
    return value == Math.rint(value)
        && value >= -2147483648d
        && value <= 2147483647d
        && (chosen.min == null || value >= chosen.min)
        && (chosen.max == null || value <= chosen.max);
  }

  private static boolean wordOrStringMatches(ValueType type, String text) {
    switch (type.kind) {
      case NUMBER:
        return type.isNumberWord(text);
      case BOOLEAN:
        return ValueType.isBooleanWord(text);
      case ENUM:
        return type.values.contains(text);
      case STRING:
        return type.pattern == null || type.pattern.matcher(text).matches();
      default:
        return false;
    }
  }
}
