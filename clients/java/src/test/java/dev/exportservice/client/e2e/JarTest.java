package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.ExportClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The tests exercise the built jar itself, and the jar is the library alone. The README's first
 * route, {@code java clients/java/BuildJar.java}, makes the same jar with a JDK alone, and the
 * README says how large it is.
 */
class JarTest {
  /** What the README says of the jar's size: "The jar is about 114 KB" (KB: 1,000 bytes). */
  private static final Pattern SIZE_CLAIM = Pattern.compile("jar\\s+is\\s+about\\s+(\\d+)\\s+KB");
  /** How far "about" may be from the jar's size, as a fraction of it. */
  private static final double ABOUT = 0.05;

  private static Path jdkJar;
  private static String jdkRouteOutput;

  /** The README's command, run as printed: {@code java clients/java/BuildJar.java} in the root. */
  @BeforeAll
  static void buildWithTheJdkAlone() throws Exception {
    Path root = LocalService.root();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("clients/java/BuildJar.java");
    Process process = new ProcessBuilder(command).directory(root.toFile()).start();
    String errors = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    jdkRouteOutput = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), errors);
    jdkJar = root.resolve(jdkRouteOutput.strip());
  }
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

  @Test
  void theJdkRoutePrintsTheJarsPathAlone() {
    String expected = "clients/java/build/export-client-" + System.getProperty("client.version") + ".jar";
    assertEquals(expected + System.lineSeparator(), jdkRouteOutput);
    assertTrue(Files.isRegularFile(jdkJar), jdkJar.toString());
  }

  /**
   * BuildJar.java reads the pom for what to compile and carry: its jar holds Maven's entries,
   * class for class and resource for resource, byte for byte. Only Maven's own files (its copy of
   * the pom), its manifest's tool names and the package-info classes Maven writes its own way
   * differ.
   */
  @Test
  void theJdkRoutesJarIsMavensJar() throws Exception {
    Map<String, byte[]> maven = entries(Path.of(System.getProperty("client.jar")));
    Map<String, byte[]> jdk = entries(jdkJar);
    maven.keySet().removeIf(name -> name.startsWith("META-INF/maven/") || name.equals("META-INF/"));
    assertEquals(maven.keySet(), jdk.keySet());
    for (String name : maven.keySet()) {
      if (name.equals("META-INF/MANIFEST.MF") || name.endsWith("/package-info.class")) continue;
      assertTrue(Arrays.equals(maven.get(name), jdk.get(name)), name + " differs");
    }
    try (JarFile jar = new JarFile(jdkJar.toFile())) {
      Attributes manifest = jar.getManifest().getMainAttributes();
      assertNull(manifest.getValue("Class-Path"), "no runtime dependency");
      assertEquals(System.getProperty("client.version"), manifest.getValue("Implementation-Version"));
      assertEquals("dev.exportservice.client", manifest.getValue("Automatic-Module-Name"));
    }
  }

  @Test
  void bothJarsCarryTheRepositorysLicense() throws Exception {
    byte[] license = Files.readAllBytes(LocalService.root().resolve("LICENSE"));
    for (Path jar : List.of(Path.of(System.getProperty("client.jar")), jdkJar)) {
      assertTrue(Arrays.equals(license, entries(jar).get("META-INF/LICENSE")), jar.toString());
    }
  }

  @Test
  void theReadmeSaysHowLargeTheJarIs() throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("client.readme")));
    long size = Files.size(jdkJar);
    Matcher claim = SIZE_CLAIM.matcher(readme);
    int claims = 0;
    while (claim.find()) {
      claims++;
      long said = Long.parseLong(claim.group(1)) * 1000;
      assertTrue(
          Math.abs(said - size) <= ABOUT * size,
          "README.md says the jar is about " + claim.group(1) + " KB; it is " + size
              + " bytes: write \"about " + Math.round(size / 1000.0) + " KB\"");
    }
    assertTrue(claims > 0, "README.md says how large the jar is");
  }

  private static Map<String, byte[]> entries(Path jarFile) throws Exception {
    Map<String, byte[]> entries = new TreeMap<>();
    try (JarFile jar = new JarFile(jarFile.toFile())) {
      for (JarEntry entry : jar.stream().toList()) {
        entries.put(entry.getName(), jar.getInputStream(entry).readAllBytes());
      }
    }
    return entries;
  }
}
