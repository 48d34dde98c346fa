package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.ExportClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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

  @Test
  void theSourcesJarHoldsEverySourceAndTheJavadocJarEveryPublicType() throws Exception {
    Set<String> sources;
    try (Stream<Path> files = Files.walk(Path.of("src", "main", "java"))) {
      sources =
          files.filter(path -> path.toString().endsWith(".java"))
              .map(path -> Path.of("src", "main", "java").relativize(path).toString().replace('\\', '/'))
              .collect(Collectors.toSet());
    }
    try (JarFile jar = new JarFile(System.getProperty("client.sources"))) {
      Set<String> inJar =
          jar.stream().map(entry -> entry.getName()).filter(name -> name.endsWith(".java")).collect(Collectors.toSet());
      assertEquals(sources, inJar);
    }
    try (JarFile jar = new JarFile(System.getProperty("client.javadoc"))) {
      assertTrue(jar.getEntry("index.html") != null);
      // Pages sit under the automatic module's name.
      Set<String> pages = jar.stream().map(entry -> entry.getName()).collect(Collectors.toSet());
      String folder = "dev.exportservice.client/dev/exportservice/client/";
      for (String type :
          List.of("ExportClient", "ExportClient.Builder", "Export", "ExportInfo", "Model", "Animation", "ExportException", "RateLimit")) {
        assertTrue(pages.contains(folder + type + ".html"), type);
      }
      assertTrue(!pages.contains(folder + "JsonReader.html"), "no page for what is not public");
      assertTrue(pages.stream().noneMatch(page -> page.contains("/internal/")), "no page for the internal rooms");
    }
  }
}
