package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.internal.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The service's export-safety vectors (test/vectors/export-safety/, the same files the service's
 * tests publish): every one gets the service's verdict, path and finding from
 * {@link ExportSafety#check(String)}, as published and as fetched (the placeholder replaced by a
 * tag); {@link Model#parse(String)} refuses what the check refuses.
 */
class SafetyVectorsTest {
  static final Path VECTORS =
      Path.of(System.getProperty("service.root", "../..")).resolve("test/vectors/export-safety");

  /** The manifest: file, verdict, path, found. */
  static List<Map<String, Object>> manifest() throws Exception {
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> entries =
        (List<Map<String, Object>>) JsonReader.parse(Files.readString(VECTORS.resolve("manifest.json")));
    return entries;
  }

  @Test
  void everyVectorGetsTheServicesVerdictPathAndFinding() throws Exception {
    List<Map<String, Object>> entries = manifest();
    assertTrue(entries.size() >= 61, entries.size() + " vectors");
    int refused = 0;
    for (Map<String, Object> entry : entries) {
      String file = (String) entry.get("file");
      String published = Files.readString(VECTORS.resolve(file));
      String fetched = published.replace("[MODELSERVERTAG]", "gate_2");
      if (entry.get("verdict").equals("allowed")) {
        assertDoesNotThrow(() -> ExportSafety.check(published), file);
        assertDoesNotThrow(() -> ExportSafety.check(fetched), file + " as fetched");
        assertDoesNotThrow(() -> Model.parse(fetched), file);
        continue;
      }
      refused++;
      UnsafeExportException error = assertThrows(UnsafeExportException.class, () -> ExportSafety.check(published), file);
      assertEquals(entry.get("path"), error.path(), file);
      assertEquals(entry.get("found"), error.found(), file);
      assertEquals("unsafe_export", error.code());
      assertTrue(error.getMessage().startsWith(PlainText.of(error.path()) + " "), error.getMessage());
      UnsafeExportException asFetched = assertThrows(UnsafeExportException.class, () -> ExportSafety.check(fetched), file);
      assertEquals(entry.get("path"), asFetched.path(), file + " as fetched");
      assertEquals(error.reason(), asFetched.reason(), file + " as fetched");
      UnsafeExportException parsed = assertThrows(UnsafeExportException.class, () -> Model.parse(fetched), file);
      assertEquals(entry.get("path"), parsed.path());
    }
    assertTrue(refused >= 49, refused + " refused vectors");
  }

  @Test
  void theFixturesAreDisplayModels() throws Exception {
    for (String name : List.of("animated-80-displays", "reading-41-displays", "stone-gate-136-displays")) {
      String published = Files.readString(VECTORS.resolve("../../../fixtures/" + name + ".json").normalize());
      assertDoesNotThrow(() -> ExportSafety.check(published), name);
      assertDoesNotThrow(() -> ExportSafety.check(published.replace("[MODELSERVERTAG]", "my_model_1")), name);
    }
  }

  @Test
  void aMessageNamesThePathAndWhatWasFound() {
    String json = "{\"content\":{\"datapack\":{\"anim_keyframes\":{\"open\":{\"7\":[\"op @a\"]}}}}}";
    UnsafeExportException error = assertThrows(UnsafeExportException.class, () -> ExportSafety.check(json));
    assertEquals(
        "content.datapack.anim_keyframes.open.7[0] runs the command \"op\", which is not part of a display model.",
        error.getMessage());
    assertEquals("command", error.reason());
    assertEquals(0, error.status());
    assertThrows(ExportServiceException.class, () -> ExportSafety.check("{not json"));
    assertDoesNotThrow(() -> ExportSafety.check("[\"op @a\"]"), "not an export: nothing a plugin runs");
  }
}
