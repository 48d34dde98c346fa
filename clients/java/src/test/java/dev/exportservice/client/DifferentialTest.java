package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.internal.json.JsonReader;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The TypeScript check and this one give the same verdict on thousands of generated exports:
 * {@code src/test/differential/cases.mjs} mutates the fixtures and the export-safety vectors from
 * a seed (inserted, deleted and replaced characters, escapes, duplicate and look-alike members,
 * shape swaps, raw byte-order marks, lengths and depths around the limits) and writes each case
 * with the service's verdict; every case must get the same {@code safe}, {@code reason},
 * {@code path}, {@code found} and message here (the messages are the vocabulary file's; or be refused
 * as not JSON on both sides). The same holds for the hostile generator's exports, the generator
 * of versions and texts, the generator of the document, and every export of the must-accept
 * corpus. The seed and the count come from {@code -Ddifferential.seed} and
 * {@code -Ddifferential.count}; the hostile generator's from {@code -Ddifferential.hostileSeed}
 * and {@code -Ddifferential.hostileCount}; the others' from {@code -Ddifferential.versionsSeed},
 * {@code versionsCount}, {@code documentsSeed} and {@code documentsCount}.
 */
class DifferentialTest {
  private static final Path ROOT = Path.of(System.getProperty("service.root", "../..")).toAbsolutePath().normalize();
  private static final long SEED = Long.getLong("differential.seed", 20261126L);
  private static final int COUNT = Integer.getInteger("differential.count", 6000);
  private static final long HOSTILE_SEED = Long.getLong("differential.hostileSeed", 41L);
  private static final int HOSTILE_COUNT = Integer.getInteger("differential.hostileCount", 5000);
  private static final long VERSIONS_SEED = Long.getLong("differential.versionsSeed", 48L);
  private static final int VERSIONS_COUNT = Integer.getInteger("differential.versionsCount", 1500);
  private static final long DOCUMENTS_SEED = Long.getLong("differential.documentsSeed", 41L);
  private static final int DOCUMENTS_COUNT = Integer.getInteger("differential.documentsCount", 520);
  /** Each corpus export is compared as published and as fetched with two tags. */
  private static final int CORPUS_FORMS = 3;

  @Test
  void everyGeneratedCaseGetsTheSameVerdictInBothLanguages() throws Exception {
    Path cases = Path.of("target", "differential", "cases-" + SEED + ".jsonl").toAbsolutePath();
    int checked =
        compare(cases, List.of("--seed", String.valueOf(SEED), "--count", String.valueOf(COUNT)), "seed " + SEED);
    assertEquals(COUNT, checked, "every generated case was read");
  }

  /**
   * The hostile generator's exports (test/support/hostile-exports.ts: reader markers, escapes,
   * placeholder completions and values of the wrong type in every value position), as published
   * and as fetched with the tags that complete them: the same verdict in both languages.
   */
  @Test
  void everyHostileCaseGetsTheSameVerdictInBothLanguages() throws Exception {
    int checked = compareGenerated("hostile", HOSTILE_SEED, HOSTILE_COUNT);
    assertTrue(checked >= HOSTILE_COUNT, checked + " hostile cases: every export at least as published");
  }

  /**
   * The generator of versions and texts (test/support/version-hostile-exports.ts: click events in
   * every text, string style flags, item forms a declared version does not read), each export and
   * its benign twin: the same verdict in both languages.
   */
  @Test
  void everyVersionCaseGetsTheSameVerdictInBothLanguages() throws Exception {
    int checked = compareGenerated("versions", VERSIONS_SEED, VERSIONS_COUNT);
    assertEquals(2 * VERSIONS_COUNT, checked, "every version case and its twin was read");
  }

  /**
   * The generator of the document (test/support/hostile-exports.ts's {@code hostileDocuments}:
   * members of {@code content} and {@code datapack} a reader acts on, and sizes out of their
   * bounds): the same verdict in both languages.
   */
  @Test
  void everyDocumentCaseGetsTheSameVerdictInBothLanguages() throws Exception {
    int checked = compareGenerated("documents", DOCUMENTS_SEED, DOCUMENTS_COUNT);
    assertEquals(DOCUMENTS_COUNT, checked, "every document case was read");
  }

  /**
   * The must-accept corpus (test/corpus/manifest.json: real exports of every game version and
   * part kind), as published and as fetched with two tags: the same verdict in both languages,
   * and that verdict is safe.
   */
  @Test
  void everyCorpusExportIsSafeInBothLanguages() throws Exception {
    Path cases = Path.of("target", "differential", "corpus.jsonl").toAbsolutePath();
    int exports = ((List<?>) JsonReader.parse(Files.readString(ROOT.resolve("test/corpus/manifest.json")))).size();
    int checked = compare(cases, List.of("--corpus", "all"), "the corpus");
    assertEquals(CORPUS_FORMS * exports, checked, "every corpus export was read in every form");
    try (BufferedReader lines = Files.newBufferedReader(cases, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        Map<?, ?> generated = (Map<?, ?>) JsonReader.parse(line);
        assertEquals(Map.of("safe", true), generated.get("verdict"), "TypeScript on " + generated.get("case"));
      }
    }
  }

  /**
   * Runs one generator of test/support through cases.mjs ({@code --NAME-seed}, {@code --NAME-count})
   * and compares its cases, written to {@code target/differential/NAME-SEED.jsonl}.
   */
  private static int compareGenerated(String name, long seed, int count) throws Exception {
    Path cases = Path.of("target", "differential", name + "-" + seed + ".jsonl").toAbsolutePath();
    List<String> arguments =
        List.of("--" + name + "-seed", String.valueOf(seed), "--" + name + "-count", String.valueOf(count));
    return compare(cases, arguments, name + " seed " + seed);
  }

  /**
   * Runs cases.mjs with {@code arguments} into {@code cases}, then the Java check on every case;
   * fails on any disagreement. Returns how many cases were compared.
   */
  private static int compare(Path cases, List<String> arguments, String seed) throws Exception {
    List<String> command =
        new ArrayList<>(List.of("node", "clients/java/src/test/differential/cases.mjs", "--out", cases.toString()));
    command.addAll(arguments);
    // A port in progress: the TypeScript check of another checkout (-Ddifferential.check=DIR).
    String check = System.getProperty("differential.check");
    if (check != null) command.addAll(List.of("--check", check));
    Process node =
        new ProcessBuilder(command)
            .directory(ROOT.toFile())
            .redirectErrorStream(true)
            .start();
    String said = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    // A guard against a hang only: the cases take seconds.
    assertTrue(node.waitFor(10, TimeUnit.MINUTES), "the generator hung");
    assertEquals(0, node.exitValue(), said);
    System.out.print(said);

    int checked = 0;
    Map<String, Integer> kinds = new TreeMap<>();
    List<String> disagreements = new ArrayList<>();
    try (BufferedReader lines = Files.newBufferedReader(cases, StandardCharsets.UTF_8)) {
      for (String line = lines.readLine(); line != null; line = lines.readLine()) {
        Map<?, ?> generated = (Map<?, ?>) JsonReader.parse(line);
        String text = (String) generated.get("text");
        Map<String, Object> java = verdict(text, (String) generated.get("tag"));
        Map<String, Object> typescript = new LinkedHashMap<>();
        ((Map<?, ?>) generated.get("verdict")).forEach((name, value) -> typescript.put((String) name, value));
        // The exception's message is the refusal's sentence made plain for a log (PlainText).
        typescript.computeIfPresent("message", (name, message) -> PlainText.of((String) message));
        String kind = kindOf(typescript);
        kinds.merge(kind, 1, Integer::sum);
        checked++;
        if (!java.equals(typescript)) {
          disagreements.add(
              "case " + generated.get("case") + " (" + generated.get("how") + "): TypeScript " + typescript
                  + ", Java " + java + "; " + text.length() + " characters: " + excerpt(text));
        }
      }
    }
    System.out.println(
        "differential: " + checked + " cases, " + seed + ", " + disagreements.size() + " disagreements; " + kinds);
    assertTrue(
        disagreements.isEmpty(),
        disagreements.size() + " of " + checked + " cases differ (" + seed + "):\n"
            + String.join("\n", disagreements.subList(0, Math.min(40, disagreements.size()))));
    return checked;
  }

  /** The Java check's verdict, in the form the generator writes the TypeScript one. */
  static Map<String, Object> verdict(String text, String tag) {
    Map<String, Object> verdict = new LinkedHashMap<>();
    try {
      if (tag == null) ExportSafety.check(text);
      else ExportSafety.check(text, tag);
      verdict.put("safe", true);
    } catch (UnsafeExportException unsafe) {
      verdict.put("safe", false);
      verdict.put("reason", unsafe.reason());
      verdict.put("path", unsafe.path());
      verdict.put("found", unsafe.found());
      verdict.put("message", unsafe.getMessage());
    } catch (ExportServiceException notJson) {
      verdict.put("threw", notJson.getMessage().contains("it is not JSON") ? "SyntaxError" : notJson.getMessage());
    } catch (RuntimeException | StackOverflowError failed) {
      verdict.put("threw", failed.getClass().getSimpleName() + ": " + failed.getMessage());
    }
    return verdict;
  }

  private static String kindOf(Map<?, ?> verdict) {
    if (verdict.containsKey("threw")) return "not JSON";
    return Boolean.TRUE.equals(verdict.get("safe")) ? "safe" : String.valueOf(verdict.get("reason"));
  }

  private static String excerpt(String text) {
    String start = text.length() > 300 ? text.substring(0, 300) + "..." : text;
    StringBuilder visible = new StringBuilder();
    start.codePoints()
        .forEach(c -> visible.append(c < 0x20 || (c >= 0x7f && c <= 0xa0) || Character.getType(c) == Character.FORMAT
            ? String.format("\\u%04x", c)
            : new String(Character.toChars(c))));
    return visible.toString();
  }
}
