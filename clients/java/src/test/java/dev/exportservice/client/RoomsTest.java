package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.internal.json.JsonReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library's rooms and which way data flows between them: the client (this package) uses
 * every room; the model and the safety check read through the SNBT room's one reader and never
 * use each other; the SNBT room reads its words and limit from the vocabulary room, which reads
 * the vocabulary file through the JSON room; the JSON room uses nothing. The safety check keeps
 * the rooms of the service's (src/export-safety/), each using only those before it: types, syntax
 * (the SNBT reader extended to type what it reads), readers, rules and walk. A reference the
 * other way fails here; and clients/java/ports.json, the map from each TypeScript file of the
 * check to its Java port, is kept complete.
 */
class RoomsTest {
  private static final Path SOURCES = Path.of("src", "main", "java", "dev", "exportservice", "client");
  private static final String ROOT = "dev.exportservice.client";
  /** Each room and the rooms it may name. */
  private static final Map<String, Set<String>> MAY_USE =
      Map.of(
          "client", Set.of("internal.json", "internal.snbt", "internal.model", "internal.types", "internal.walk", "internal.vocabulary"),
          "internal.model", Set.of("internal.snbt"),
          "internal.walk", Set.of("internal.json", "internal.types", "internal.syntax", "internal.readers", "internal.rules"),
          "internal.rules", Set.of("internal.snbt", "internal.types", "internal.syntax", "internal.readers"),
          "internal.readers", Set.of("internal.vocabulary"),
          "internal.syntax", Set.of("internal.json", "internal.snbt", "internal.types"),
          "internal.types", Set.of("internal.json", "internal.snbt", "internal.vocabulary"),
          "internal.snbt", Set.of("internal.vocabulary"),
          "internal.vocabulary", Set.of("internal.json"),
          "internal.json", Set.of());
  private static final Pattern NAMED = Pattern.compile("dev\\.exportservice\\.client(\\.internal\\.[a-z]+)?\\b");

  @Test
  void dataFlowsOneWayBetweenTheRooms() throws Exception {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : (Iterable<Path>) files.filter(path -> path.toString().endsWith(".java"))::iterator) {
        String room = roomOf(SOURCES.relativize(file.getParent()).toString().replace('\\', '/'));
        assertTrue(MAY_USE.containsKey(room), "an unknown room: " + file);
        Matcher named = NAMED.matcher(Files.readString(file));
        while (named.find()) {
          String other = named.group(1) == null ? "client" : named.group(1).substring(1);
          if (!other.equals(room)) uses.computeIfAbsent(room, r -> new TreeSet<>()).add(other);
        }
      }
    }
    uses.forEach((room, others) -> assertTrue(MAY_USE.get(room).containsAll(others), room + " uses " + others));
    assertEquals(MAY_USE.keySet().stream().filter(room -> !MAY_USE.get(room).isEmpty()).collect(java.util.stream.Collectors.toSet()), uses.keySet(), "who uses another room");
  }

  @Test
  void onlyTheClientsRoomIsTheApi() throws Exception {
    try (Stream<Path> files = Files.list(SOURCES.resolve("internal"))) {
      List<String> rooms = files.map(path -> path.getFileName().toString()).sorted().toList();
      assertEquals(List.of("json", "model", "readers", "rules", "snbt", "syntax", "types", "vocabulary", "walk"), rooms);
    }
  }

  /** The service's checkout, whose src/export-safety/ the map names. */
  private static final Path CHECK =
      Path.of(System.getProperty("service.root", "../..")).toAbsolutePath().normalize().resolve("src/export-safety");

  /** The check's rooms in the library, whose every class must be some TypeScript file's port. */
  private static final List<String> CHECK_ROOMS = List.of("types", "syntax", "readers", "rules", "walk");

  @Test
  void everyTypeScriptFileOfTheCheckHasItsJavaPortInItsRoom() throws Exception {
    assertEquals(List.of(), portProblems(CHECK, Path.of("ports.json")), "clients/java/ports.json against src/export-safety/");
  }

  /**
   * What is wrong with the map {@code ports} against the TypeScript files under {@code check}: a
   * file without an entry, an entry for no file, a Java port that does not exist or stands outside
   * its file's room, an entry with neither a port nor the reason for none, a class of the check's
   * rooms that ports no file.
   */
  static List<String> portProblems(Path check, Path ports) throws Exception {
    Map<?, ?> map = (Map<?, ?>) JsonReader.parse(Files.readString(ports));
    Map<?, ?> rooms = (Map<?, ?>) map.get("rooms");
    Map<?, ?> files = (Map<?, ?>) map.get("files");
    Set<String> typescript = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(check)) {
      walk.filter(path -> path.toString().endsWith(".ts"))
          .forEach(path -> typescript.add(check.relativize(path).toString().replace('\\', '/')));
    }
    List<String> problems = new ArrayList<>();
    for (String file : typescript) {
      if (!files.containsKey(file)) problems.add(file + ": no entry (its Java port, or none with the reason)");
    }
    Set<String> ported = new TreeSet<>();
    for (Map.Entry<?, ?> entry : files.entrySet()) {
      String file = (String) entry.getKey();
      Map<?, ?> port = (Map<?, ?>) entry.getValue();
      if (!typescript.contains(file)) problems.add(file + ": no such TypeScript file");
      String room = file.contains("/") ? file.substring(0, file.indexOf('/')) : "face";
      List<?> packages = (List<?>) rooms.get(room);
      if (packages == null) {
        problems.add(file + ": its room " + room + " has no Java packages");
      } else if (port.get("java") instanceof List<?> java && !java.isEmpty()) {
        for (Object each : java) {
          Path path = SOURCES.resolve((String) each);
          if (!Files.isRegularFile(path)) problems.add(file + ": " + each + " does not exist");
          String javaRoom = roomOf(SOURCES.relativize(path.getParent()).toString().replace('\\', '/'));
          if (!packages.contains(javaRoom)) problems.add(file + ": " + each + " stands outside its room " + room + " " + packages);
          ported.add((String) each);
        }
      } else if (!(port.get("none") instanceof String reason) || reason.isBlank()) {
        problems.add(file + ": neither a Java port nor the reason it has none");
      }
    }
    for (String room : CHECK_ROOMS) {
      try (Stream<Path> classes = Files.list(SOURCES.resolve("internal").resolve(room))) {
        for (Path path : (Iterable<Path>) classes::iterator) {
          String name = SOURCES.relativize(path).toString().replace('\\', '/');
          if (!name.endsWith("package-info.java") && !ported.contains(name)) problems.add(name + ": ports no TypeScript file");
        }
      }
    }
    return problems;
  }

  private static String roomOf(String folder) {
    return folder.isEmpty() ? "client" : folder.replace('/', '.');
  }
}
