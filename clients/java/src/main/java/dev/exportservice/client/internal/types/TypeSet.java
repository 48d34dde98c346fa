package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The types of the vocabulary file as one game version reads them: an era's {@code types}
 * replace types by name ({@link Versions}), every other name is the file's own. Each set compiles
 * its types once, so that a recursive type is one object referring to itself. The port of
 * {@code TypeSet} in src/export-safety/types/types.ts.
 */
final class TypeSet {
  /** The types as the default version reads them ({@code versions.default}). */
  static final TypeSet DEFAULT = new TypeSet(Versions.overridesOf(VocabularyFile.string("versions", "default")));

  private final Map<?, ?> overrides;
  private final Map<String, ValueType> compiled = new HashMap<>();
  /** The type of each entity key ({@code keyTypes}): one per name, the same in every entity. */
  final Map<String, ValueType> keyTypes;

  TypeSet(Map<?, ?> overrides) {
    this.overrides = overrides;
    Map<String, ValueType> types = new LinkedHashMap<>();
    for (Map.Entry<?, ?> key : VocabularyFile.object("keyTypes").entrySet()) {
      types.put((String) key.getKey(), typeOf(key.getValue()));
    }
    keyTypes = Map.copyOf(types);
  }

  /** The type a name of {@code types} (or an inline type) stands for. */
  synchronized ValueType typeOf(Object raw) {
    if (!(raw instanceof String)) return ValueType.compile((Map<?, ?>) raw, ValueType.empty(), this);
    ValueType known = compiled.get(raw);
    if (known != null) return known;
    Map<?, ?> types = VocabularyFile.object("types");
    Object definition = overrides.containsKey(raw) ? overrides.get(raw) : types.get(raw);
    if (definition == null) throw new IllegalStateException(VocabularyFile.RESOURCE + ": no type \"" + raw + "\"");
    // The object first, filled in place, so that recursive types (text) resolve.
    ValueType type = ValueType.empty();
    compiled.put((String) raw, type);
    if (definition instanceof String) {
      type.copy(typeOf(definition));
    } else {
      ValueType.compile((Map<?, ?>) definition, type, this);
    }
    return type;
  }
}
