package dev.exportservice.client.internal.rules;

import dev.exportservice.client.internal.readers.PluginReaders;
import dev.exportservice.client.internal.syntax.CheckedSnbt;
import dev.exportservice.client.internal.types.UnsafeContent;
import dev.exportservice.client.internal.types.ValueType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plugins' readers held to the vocabulary: a passenger string the grammar accepted is
 * refused as {@code reader}, naming the reader, unless each reader ({@code PluginReaders}) reads
 * exactly the entities the game reads.
 */
public final class PassengerReaders {
  private PassengerReaders() {}

  /**
   * Throws the {@code reader} refusal unless every reader reads the passenger string {@code text}
   * as the grammar does: {@code compounds} its top-level compounds, {@code types} the display
   * type of every entity it holds (nested ones included).
   */
  public static void checkPassengerReaders(String text, List<PluginReaders.GrammarCompound> compounds, List<String> types, Map<String, ValueType> keyTypes) {
    if (!PluginReaders.readsAsSuperBlocksDisplays(text, compounds)) refuse(PluginReaders.SUPER_BLOCKS_DISPLAYS);
    if (!readsAsSansCraft(text, compounds, types, keyTypes)) refuse(PluginReaders.SANSCRAFT_BDE);
    // It summons the passengers inside its own `summon block_display ...`, replacing that text.
    if (!PluginReaders.readsAsDisplayEntityUtils(text)) refuse(PluginReaders.DISPLAY_ENTITY_UTILS);
  }

  private static void refuse(String reader) {
    throw new UnsafeContent(UnsafeContent.Reason.READER, reader, "readerRun");
  }

  /**
   * Whether sanscraft-bde reads {@code text} as the grammar does (after SuperBlocksDisplays'
   * reading held): without a nested list its
   * pieces are the grammar's compounds, as written; with one, its flattened entities are as many
   * as the grammar's, each a passenger the check accepts on its own, of the same display types.
   */
  static boolean readsAsSansCraft(String text, List<PluginReaders.GrammarCompound> compounds, List<String> types, Map<String, ValueType> keyTypes) {
    // The compounds are joined by bare commas from end to end (SuperBlocksDisplays' reading).
    if (!PluginReaders.mayNest(text)) return PluginReaders.cutsBetween(text, compounds);
    List<PluginReaders.ReaderEntity> entities = PluginReaders.sansCraft(text);
    if (entities.size() != types.size()) return false;
    List<String> read = new ArrayList<>();
    Set<String> scratchTags = new HashSet<>();
    try {
      for (PluginReaders.ReaderEntity entity : entities) {
        int[] count = {0};
        CheckedSnbt.forEachCompound(
            entity.compound(),
            keyTypes,
            (compound, start, end) -> {
              if (start >= 0) count[0]++;
              read.add(Entities.checkPassenger(compound, scratchTags));
            });
        if (count[0] != 1) return false;
      }
    } catch (UnsafeContent refused) {
      return false;
    }
    if (read.size() != types.size()) return false;
    List<String> sortedRead = new ArrayList<>(read);
    List<String> sortedTypes = new ArrayList<>(types);
    Collections.sort(sortedRead);
    Collections.sort(sortedTypes);
    return sortedRead.equals(sortedTypes);
  }
}
