package dev.exportservice.client.internal.types;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The game version an export is read as: {@code content.version} chooses an era of the
 * vocabulary file's {@code versions}, whose types replace some of the file's (items as
 * {@code Count} and {@code tag} up to 1.20.4, {@code count} and {@code components} from 1.20.5;
 * string booleans in JSON text where Gson read them). The port of src/export-safety/types/versions.ts.
 */
public final class Versions {
  private static final Pattern VERSION = Pattern.compile("(\\d{1,4})\\.(\\d{1,4})(?:\\.(\\d{1,4}))?");
  private static final String DEFAULT = VocabularyFile.string("versions", "default");
  private static final List<Era> ERAS = eras();

  private Versions() {}

  private static final class Era {
    final int[] from;
    final String name;
    final Map<?, ?> overrides;
    TypeSet types;

    Era(String name, Map<?, ?> overrides) {
      this.from = numbers(name);
      this.name = name;
      this.overrides = overrides;
    }
  }

  private static List<Era> eras() {
    List<Era> eras = new ArrayList<>();
    for (Object era : (List<?>) VocabularyFile.at("versions", "eras")) {
      Map<?, ?> fields = (Map<?, ?>) era;
      eras.add(new Era((String) fields.get("from"), (Map<?, ?>) fields.get("types")));
    }
    return eras;
  }

  /** The {@code types} of the era that begins at {@code from}. */
  static Map<?, ?> overridesOf(String from) {
    for (Object era : (List<?>) VocabularyFile.at("versions", "eras")) {
      Map<?, ?> fields = (Map<?, ?>) era;
      if (from.equals(fields.get("from"))) return (Map<?, ?>) fields.get("types");
    }
    throw new IllegalStateException(VocabularyFile.RESOURCE + ": no era from \"" + from + "\"");
  }

  /** A version as numbers: {@code 1.20.4} is [1, 20, 4], {@code 1.21} is [1, 21, 0]; or null. */
  private static int[] numbers(String version) {
    Matcher match = VERSION.matcher(version);
    if (!match.matches()) return null;
    String patch = match.group(3);
    return new int[] {Integer.parseInt(match.group(1)), Integer.parseInt(match.group(2)), patch == null ? 0 : Integer.parseInt(patch)};
  }

  private static int compare(int[] a, int[] b) {
    for (int at = 0; at < 3; at++) if (a[at] != b[at]) return Integer.compare(a[at], b[at]);
    return 0;
  }

  /**
   * The era {@code version} (the value of {@code content.version}) falls in: the last that
   * begins at or before it. Absent, not a string, not a version or older than every era: the
   * default era.
   */
  static String eraOf(Object version) {
    int[] numbers = version instanceof String ? numbers((String) version) : null;
    if (numbers == null || compare(numbers, ERAS.get(0).from) < 0) return DEFAULT;
    Era chosen = ERAS.get(0);
    for (Era era : ERAS) if (compare(era.from, numbers) <= 0) chosen = era;
    return chosen.name;
  }

  /**
   * The entity key types of the era {@code version} falls in: what the check of one export hands
   * the SNBT reader wherever it reads that export's entity data.
   */
  public static synchronized Map<String, ValueType> keyTypesOf(Object version) {
    String name = eraOf(version);
    for (Era era : ERAS) {
      if (!era.name.equals(name)) continue;
      if (era.types == null) era.types = name.equals(DEFAULT) ? TypeSet.DEFAULT : new TypeSet(era.overrides);
      return era.types.keyTypes;
    }
    throw new IllegalStateException("no era " + name);
  }
}
