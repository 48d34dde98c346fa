package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.ExportClient;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/** The tests exercise the built jar itself, and the jar is the library alone. */
class JarTest {
  @Test
  void theLibraryUnderTestIsLoadedFromTheBuiltJar() throws Exception {
    Path loadedFrom =
        Path.of(ExportClient.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertEquals(Path.of(System.getProperty("client.jar")).toRealPath(), loadedFrom.toRealPath());
  }

  @Test
  void theJarHoldsOnlyTheLibraryAndNeedsNothingElse() throws Exception {
    try (JarFile jar = new JarFile(System.getProperty("client.jar"))) {
      jar.stream()
          .forEach(
              entry ->
                  assertTrue(
                      entry.getName().startsWith("META-INF/")
                          || entry.getName().startsWith("dev/exportservice/client/")
                          || entry.getName().equals("dev/")
                          || entry.getName().equals("dev/exportservice/"),
                      entry.getName()));
      Attributes manifest = jar.getManifest().getMainAttributes();
      assertNull(manifest.getValue("Class-Path"), "no runtime dependency");
      assertEquals(System.getProperty("client.version"), manifest.getValue("Implementation-Version"));
      assertEquals("dev.exportservice.client", manifest.getValue("Automatic-Module-Name"));
    }
  }
}
