package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.internal.vocabulary.VocabularyFile;
import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java check reads its words from the service's one vocabulary file, which the jar carries:
 * the jar's copy is the repository's file byte for byte, and a word added to the file reaches
 * the check (a JVM whose class path puts an edited file before the jar's accepts what the jar's
 * own file refuses), so no table of words lives in Java.
 */
class VocabularyFileTest {
  private static final Path ROOT = Path.of(System.getProperty("service.root", "../..")).toAbsolutePath().normalize();
  private static final Path FILE = ROOT.resolve("src/export-safety/types/vocabulary.json");
  private static final String RESOURCE =
      "dev/exportservice/client/internal/vocabulary/" + VocabularyFile.RESOURCE;

  /** One part, whose frame runs {@code command}. */
  private static String export(String compound, String command) {
    return "{\"content\":{\"passengers\":[\"" + compound.replace("\"", "\\\"") + "\"],\"datapack\":{\"anim_keyframes\":{\"a\":{\"0\":[\""
        + command.replace("\"", "\\\"") + "\"]}}}}}";
  }

  private static final String PART = "{id:\"minecraft:block_display\",Tags:[\"[MODELSERVERTAG]_0\"]}";

  @Test
  void theJarCarriesTheServicesFileByteForByte() throws Exception {
    try (JarFile jar = new JarFile(System.getProperty("client.jar"));
        InputStream in = jar.getInputStream(jar.getEntry(RESOURCE))) {
      assertArrayEquals(Files.readAllBytes(FILE), in.readAllBytes(), RESOURCE);
    }
    assertEquals(VocabularyFile.parse(Files.readString(FILE)), VocabularyFile.root());
  }

  @Test
  void aWordAddedToTheFileReachesTheJavaCheck(@TempDir Path temp) throws Exception {
    // Four words the file does not hold today: an entity key, a sound source, a selector sort and
    // a value of a type (a billboard mode).
    List<String> exports =
        List.of(
            export(PART.replace("Tags:", "Motion:[0d,0d,0d],Tags:"), "playsound a master @a ~ ~ ~"),
            export(PART, "playsound a ui @a ~ ~ ~"),
            export(PART, "data merge entity @e[type=block_display,tag=[MODELSERVERTAG]_0,sort=oldest] {}"),
            export(PART.replace("Tags:", "billboard:diagonal,Tags:"), "playsound a master @a ~ ~ ~"));
    List<String> refusedToday = List.of("key Motion", "syntax ui", "selector sort=oldest", "type billboard");
    List<String> files = new ArrayList<>();
    for (int i = 0; i < exports.size(); i++) {
      Path file = temp.resolve("export-" + i + ".json");
      Files.writeString(file, exports.get(i));
      files.add(file.toString());
      UnsafeExportException refused =
          assertThrows(UnsafeExportException.class, () -> ExportSafety.check(Files.readString(file)));
      assertEquals(refusedToday.get(i), refused.reason() + " " + refused.found(), "the jar's own file");
    }

    String edited =
        VocabularyEdits.addWords(Files.readString(FILE), "Motion", "ui", "oldest", "diagonal");
    Path classes = temp.resolve("classes");
    Path resource = classes.resolve(RESOURCE);
    Files.createDirectories(resource.getParent());
    Files.writeString(resource, edited);
    assertEquals(List.of("safe", "safe", "safe", "safe"), probe(classes, files), "the edited file");
    assertEquals(refusedToday, probe(temp.resolve("none"), files), "the jar's file again, in another JVM");
  }

  /** The verdicts of {@link VocabularyProbe} in a JVM whose class path starts with {@code first}. */
  private static List<String> probe(Path first, List<String> files) throws Exception {
    String classPath =
        String.join(
            File.pathSeparator,
            first.toString(),
            System.getProperty("client.jar"),
            Path.of(VocabularyProbe.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", classPath, VocabularyProbe.class.getName()));
    command.addAll(files);
    Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
    String said = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(java.waitFor(2, TimeUnit.MINUTES), "the probe hung");
    assertEquals(0, java.exitValue(), said);
    return List.of(said.strip().split("\\R"));
  }
}
