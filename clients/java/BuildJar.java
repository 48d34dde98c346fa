/*
 * Builds the Java client's jar with a JDK alone (17 or newer), offline, on any system:
 *
 *   java clients/java/BuildJar.java
 *
 * from the repository's root. It prints the jar's path (clients/java/build/export-client-<version>.jar)
 * and nothing else on standard output. The jar holds what Maven's jar of the same pom holds
 * (checked by the tests, e2e.JarTest): the classes of src/main/java compiled as the pom compiles
 * them, every resource the pom's <resources> name, filtered where the pom filters (the version in
 * library.properties), and the manifest entries of the pom's jar plugin. The pom stays the one
 * place that says what the jar carries; this reads it instead of repeating it.
 */

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

public final class BuildJar {
  private static final Pattern PROPERTY = Pattern.compile("\\$\\{([\\w.-]+)}");

  public static void main(String[] args) throws Exception {
    Path client = clientFolder();
    Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(client.resolve("pom.xml").toFile()).getDocumentElement();
    Map<String, String> properties = properties(project, client);
    String finalName = properties.get("project.artifactId") + "-" + properties.get("project.version");

    Path build = client.resolve("build");
    Path classes = build.resolve("classes");
    deleteTree(classes);
    Files.createDirectories(classes);
    compile(client.resolve("src/main/java"), classes, compilerOptions(project, properties));
    Map<String, byte[]> resources = resources(project, properties);

    Map<String, byte[]> entries = new TreeMap<>(resources);
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String name = classes.relativize(file).toString().replace('\\', '/');
        if (entries.put(name, Files.readAllBytes(file)) != null) {
          throw new IllegalStateException("A resource has the name of a class: " + name);
        }
      }
    }
    Path jar = build.resolve(finalName + ".jar");
    writeJar(jar, manifest(project, properties), entries);
    System.out.println(shown(jar));
  }

  /** The jar: the manifest first, then every folder, then every file, each in name order. */
  private static void writeJar(Path jar, Manifest manifest, Map<String, byte[]> files) throws IOException {
    List<String> folders = new ArrayList<>();
    for (String name : files.keySet()) {
      for (int slash = name.indexOf('/'); slash >= 0; slash = name.indexOf('/', slash + 1)) {
        String folder = name.substring(0, slash + 1);
        // The manifest's folder is written with the manifest.
        if (!folders.contains(folder) && !folder.equals("META-INF/")) folders.add(folder);
      }
    }
    folders.sort(Comparator.naturalOrder());
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
      for (String folder : folders) out.putNextEntry(new JarEntry(folder));
      for (Map.Entry<String, byte[]> file : files.entrySet()) {
        out.putNextEntry(new JarEntry(file.getKey()));
        out.write(file.getValue());
      }
    }
  }

  /** The jar's path from the current folder (clients/java/build/... from the root), else whole. */
  private static Path shown(Path jar) {
    Path here = Path.of("").toAbsolutePath();
    Path whole = jar.toAbsolutePath().normalize();
    if (!whole.getRoot().equals(here.getRoot())) return whole; // another drive, on Windows
    Path relative = here.relativize(whole);
    return relative.startsWith("..") ? whole : relative;
  }

  /** clients/java: the folder this file sits in. */
  private static Path clientFolder() {
    // The source launcher names the file it runs; a copy compiled the usual way runs from the folder.
    String source = System.getProperty("jdk.launcher.sourcefile");
    Path folder = source != null ? Path.of(source).toAbsolutePath().getParent() : Path.of("").toAbsolutePath();
    if (!Files.isRegularFile(folder.resolve("pom.xml"))) {
      throw new IllegalStateException("No pom.xml beside BuildJar.java in " + folder);
    }
    return folder.normalize();
  }

  /** The pom's properties, with the project's own that the build uses. */
  private static Map<String, String> properties(Element project, Path client) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("project.basedir", client.toString());
    properties.put("basedir", client.toString());
    properties.put("project.groupId", text(project, "groupId"));
    properties.put("project.artifactId", text(project, "artifactId"));
    properties.put("project.version", text(project, "version"));
    properties.put("project.name", text(project, "name"));
    Element declared = child(project, "properties");
    if (declared != null) {
      for (Element property : children(declared)) properties.put(property.getTagName(), property.getTextContent().trim());
    }
    for (Map.Entry<String, String> entry : properties.entrySet()) {
      entry.setValue(interpolate(entry.getValue(), properties));
    }
    return properties;
  }

  /**
   * The options Maven's compiler plugin gives javac for this pom: the release, the encoding,
   * debugging information and a class for every package-info (the plugin's defaults), and the
   * pom's own compiler arguments.
   */
  private static List<String> compilerOptions(Element project, Map<String, String> properties) {
    List<String> options = new ArrayList<>(List.of(
        "--release", properties.get("maven.compiler.release"),
        "-encoding", properties.get("project.build.sourceEncoding"), "-g", "-Xpkginfo:always"));
    for (Element plugin : elements(project, "plugin")) {
      if (!"maven-compiler-plugin".equals(text(plugin, "artifactId"))) continue;
      for (Element args : elements(plugin, "compilerArgs")) {
        for (Element arg : children(args)) options.add(interpolate(arg.getTextContent().trim(), properties));
      }
    }
    return options;
  }

  private static void compile(Path sources, Path classes, List<String> compilerOptions) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) throw new IllegalStateException("No Java compiler: run this with a JDK, not a JRE.");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(path -> path.toString().endsWith(".java")).sorted().toList();
    }
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager manager = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      List<String> options = new ArrayList<>(compilerOptions);
      options.addAll(List.of("-d", classes.toString()));
      boolean compiled =
          javac.getTask(diagnostics, manager, null, options, null, manager.getJavaFileObjectsFromPaths(files)).call();
      if (!compiled) throw new IllegalStateException("javac failed:\n" + diagnostics);
    }
  }

  /** Every file the pom's <resources> name, by its name in the jar, filtered where the pom says. */
  private static Map<String, byte[]> resources(Element project, Map<String, String> properties) throws IOException {
    Map<String, byte[]> resources = new TreeMap<>();
    Element build = child(project, "build");
    Element declared = build == null ? null : child(build, "resources");
    if (declared == null) throw new IllegalStateException("The pom names no <resources>.");
    for (Element resource : children(declared)) {
      Path directory = Path.of(interpolate(text(resource, "directory"), properties));
      if (!directory.isAbsolute()) directory = Path.of(properties.get("project.basedir")).resolve(directory);
      String targetPath = optionalText(resource, "targetPath");
      boolean filtering = "true".equals(optionalText(resource, "filtering"));
      List<PathMatcher> includes = patterns(resource, "includes");
      List<PathMatcher> excludes = patterns(resource, "excludes");
      Path root = directory.normalize();
      try (Stream<Path> walk = Files.walk(root)) {
        for (Path file : walk.filter(Files::isRegularFile).sorted().toList()) {
          Path relative = root.relativize(file);
          boolean included = includes.isEmpty() || includes.stream().anyMatch(m -> m.matches(relative));
          if (!included || excludes.stream().anyMatch(m -> m.matches(relative))) continue;
          String name = (targetPath.isEmpty() ? "" : targetPath + "/") + relative.toString().replace('\\', '/');
          byte[] bytes = Files.readAllBytes(file);
          if (filtering) {
            bytes = interpolate(new String(bytes, StandardCharsets.UTF_8), properties).getBytes(StandardCharsets.UTF_8);
          }
          if (resources.put(name, bytes) != null) throw new IllegalStateException("Two resources named " + name);
        }
      }
    }
    return resources;
  }

  /** Maven's patterns: `**` any folders, `*` within a name; a plain name is that file. */
  private static List<PathMatcher> patterns(Element resource, String kind) {
    List<PathMatcher> matchers = new ArrayList<>();
    Element list = child(resource, kind);
    if (list == null) return matchers;
    for (Element pattern : children(list)) {
      String glob = pattern.getTextContent().trim().replace("**/", "{**/,}");
      matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + glob));
    }
    return matchers;
  }

  /** The manifest Maven's jar plugin writes for this pom: its default entries and the pom's own. */
  private static Manifest manifest(Element project, Map<String, String> properties) {
    Manifest manifest = new Manifest();
    Attributes main = manifest.getMainAttributes();
    main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
    main.put(new Attributes.Name("Created-By"), "BuildJar.java (JDK " + Runtime.version().feature() + ")");
    main.put(Attributes.Name.IMPLEMENTATION_TITLE, properties.get("project.name"));
    main.put(Attributes.Name.IMPLEMENTATION_VERSION, properties.get("project.version"));
    for (Element plugin : elements(project, "plugin")) {
      if (!"maven-jar-plugin".equals(text(plugin, "artifactId"))) continue;
      for (Element entries : elements(plugin, "manifestEntries")) {
        for (Element entry : children(entries)) {
          main.put(new Attributes.Name(entry.getTagName()), interpolate(entry.getTextContent().trim(), properties));
        }
      }
    }
    return manifest;
  }

  private static String interpolate(String text, Map<String, String> properties) {
    Matcher property = PROPERTY.matcher(text);
    StringBuilder out = new StringBuilder();
    while (property.find()) {
      String value = properties.get(property.group(1));
      if (value == null) throw new IllegalStateException("Unknown property ${" + property.group(1) + "} in " + text);
      property.appendReplacement(out, Matcher.quoteReplacement(interpolate(value, properties)));
    }
    return property.appendTail(out).toString();
  }

  private static String text(Element parent, String name) {
    Element element = child(parent, name);
    if (element == null) throw new IllegalStateException("No <" + name + "> in <" + parent.getTagName() + ">");
    return element.getTextContent().trim();
  }

  private static String optionalText(Element parent, String name) {
    Element element = child(parent, name);
    return element == null ? "" : element.getTextContent().trim();
  }

  private static Element child(Element parent, String name) {
    for (Element element : children(parent)) if (element.getTagName().equals(name)) return element;
    return null;
  }

  private static List<Element> children(Element parent) {
    List<Element> elements = new ArrayList<>();
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element) elements.add(element);
    }
    return elements;
  }

  private static List<Element> elements(Element parent, String name) {
    List<Element> elements = new ArrayList<>();
    var nodes = parent.getElementsByTagName(name);
    for (int i = 0; i < nodes.getLength(); i++) elements.add((Element) nodes.item(i));
    return elements;
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) return;
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path path : walk.sorted(Comparator.reverseOrder()).toList()) Files.delete(path);
    }
  }

  private BuildJar() {}
}
