package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
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
 * every room; the model and the safety check read through the SNBT room's one reader (the check
 * extends it, and also reads JSON text inside SNBT) and never use each other; the SNBT room reads
 * its words and limit from the vocabulary room, which reads the vocabulary file through the JSON room; the JSON room uses nothing. A reference the other way (a room naming the
 * client, or the model and the safety check naming each other) fails here.
 */
class RoomsTest {
  private static final Path SOURCES = Path.of("src", "main", "java", "dev", "exportservice", "client");
  private static final String ROOT = "dev.exportservice.client";
  /** Each room and the rooms it may name. */
  private static final Map<String, Set<String>> MAY_USE =
      Map.of(
          "client", Set.of("internal.json", "internal.snbt", "internal.model", "internal.safety", "internal.vocabulary"),
          "internal.model", Set.of("internal.snbt"),
          "internal.safety", Set.of("internal.snbt", "internal.json", "internal.vocabulary"),
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
    assertEquals(Set.of("client", "internal.model", "internal.safety", "internal.snbt", "internal.vocabulary"), uses.keySet(), "who uses another room");
  }

  @Test
  void onlyTheClientsRoomIsTheApi() throws Exception {
    try (Stream<Path> files = Files.list(SOURCES.resolve("internal"))) {
      List<String> rooms = files.map(path -> path.getFileName().toString()).sorted().toList();
      assertEquals(List.of("json", "model", "safety", "snbt", "vocabulary"), rooms);
    }
  }

  private static String roomOf(String folder) {
    return folder.isEmpty() ? "client" : folder.replace('/', '.');
  }
}
