package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.FixtureFrames;
import dev.exportservice.client.Model;
import java.io.File;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java blocks are real programs: each compiles with plain javac against the built
 * jar alone (the Bukkit classes the Paper example calls are stubbed in src/test/stubs),
 * and `Tour`, written against exactly the documented surface, runs against `npm start`. So does
 * the example consumer project of examples/ (its builds are the README's install routes, which
 * ci.sh runs).
 */
class ExamplesTest {
  private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);
  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern PUBLIC_CLASS = Pattern.compile("^public (?:final )?class (\\w+)", Pattern.MULTILINE);

  @Test
  void theReadmeExamplesCompileAgainstTheJarAndTourRunsAgainstTheService(@TempDir Path work)
      throws Exception {
    Path jar = Path.of(System.getProperty("client.jar"));
    List<Path> sources = new ArrayList<>(readmeSources(work.resolve("src")));
    try (Stream<Path> stubs = Files.walk(Path.of("src", "test", "stubs"))) {
      stubs.filter(path -> path.toString().endsWith(".java")).forEach(sources::add);
    }
    Path classes = Files.createDirectories(work.resolve("classes"));
    compile(sources, jar, classes);
    assertTrue(Files.exists(classes.resolve("com/example/models/ModelsPlugin.class")));

    try (LocalService service = LocalService.start("examples", Map.of())) {
      byte[] document = LocalService.fixture("animated-80-displays");
      String id = service.publish(document);
      String output = run(jar, classes, "com.example.models.Tour", service.url.toString(), id);
      int getBytes = LocalService.substituted(document, "my_model_1").length;
      int headBytes = LocalService.substituted(document, "model").length;
      String served = new String(LocalService.substituted(document, "my_model_1"), StandardCharsets.UTF_8);
      int atTickZero = FixtureFrames.frames(served, "anim_keyframes").get("default").get(0).size();
      int summon =
          ("summon minecraft:block_display ~ ~ ~ {Tags:[\"my_model_1\"],Passengers:["
                  + String.join(",", FixtureFrames.passengers(served))
                  + "]}")
              .length();
      Matcher said =
          Pattern.compile(
                  "(\\d+) chars, (\\d+) bytes, expires in (\\d+) s, (\\d+) of 120 requests left, tag my_model_1; "
                      + "HEAD: (\\d+) bytes, expires in (\\d+) s\\n"
                      + Pattern.quote(
                          "80 parts tagged my_model_1; default: 78 ticks, a frame every 2, "
                              + atTickZero
                              + " commands at tick 0; sounds []; 0 hitbox commands; copy tagged my_model_2, "
                              + summon
                              + "-character summon")
                      + "\\n")
              .matcher(output);
      assertTrue(said.matches(), output);
      assertEquals(getBytes, Integer.parseInt(said.group(2)));
      assertEquals(headBytes, Integer.parseInt(said.group(5)));
      assertTrue(Integer.parseInt(said.group(3)) > 500);

      Path example = Files.createDirectories(work.resolve("example"));
      compile(exampleSources(), jar, example);
      String printed = run(jar, example, "com.example.printmodel.PrintModel", service.url.toString(), id);
      Model model = Model.parse(new String(LocalService.substituted(document, "printed_1"), StandardCharsets.UTF_8));
      assertEquals(
          "80 parts tagged printed_1, summoned by " + model.summonCommands().size()
              + " command(s) of at most 32500 characters\n"
              + "animation default: 78 ticks, " + model.animation("default").frameTicks().size() + " frames\n"
              + "0 hitbox command(s), " + model.removeCommands().size() + " removal command(s)\n",
          printed);
      Process unknown = start(jar, example, "com.example.printmodel.PrintModel", service.url.toString(), "999999");
      String refused = new String(unknown.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(unknown.waitFor(60, TimeUnit.SECONDS));
      assertEquals(1, unknown.exitValue(), refused);
      assertTrue(refused.startsWith("Cannot load model 999999: "), refused);
    }
  }

  /** The example consumer's sources, as its Maven and Gradle builds compile them. */
  private static List<Path> exampleSources() throws Exception {
    try (Stream<Path> files = Files.walk(Path.of("examples", "src", "main", "java"))) {
      List<Path> sources = files.filter(path -> path.toString().endsWith(".java")).toList();
      assertEquals(1, sources.size(), "PrintModel alone: " + sources);
      return sources;
    }
  }

  /** Every ```java block of the README, written to its file (each is one compilation unit). */
  private static List<Path> readmeSources(Path root) throws Exception {
    String readme = Files.readString(Path.of(System.getProperty("client.readme")));
    List<Path> files = new ArrayList<>();
    Matcher block = JAVA_BLOCK.matcher(readme);
    while (block.find()) {
      String source = block.group(1);
      Matcher pkg = PACKAGE.matcher(source);
      Matcher type = PUBLIC_CLASS.matcher(source);
      assertTrue(pkg.find() && type.find(), "a whole compilation unit:\n" + source);
      Path file = root.resolve(pkg.group(1).replace('.', '/')).resolve(type.group(1) + ".java");
      Files.createDirectories(file.getParent());
      Files.writeString(file, source);
      files.add(file);
    }
    assertEquals(3, files.size(), "the Paper plugin, the tour of the API, the error messages");
    return files;
  }

  private static void compile(List<Path> sources, Path jar, Path classes) throws Exception {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    StringWriter diagnostics = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
      Iterable<? extends JavaFileObject> units = files.getJavaFileObjectsFromPaths(sources);
      List<String> options =
          List.of("--release", "17", "-Xlint:all", "-Werror", "-classpath", jar.toString(), "-d", classes.toString());
      boolean compiled = javac.getTask(diagnostics, files, null, options, null, units).call();
      assertTrue(compiled, "javac against " + jar + ":\n" + diagnostics);
    }
  }

  private static Process start(Path jar, Path classes, String main, String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", jar + File.pathSeparator + classes, main));
    command.addAll(List.of(args));
    return new ProcessBuilder(command).redirectErrorStream(true).start();
  }

  private static String run(Path jar, Path classes, String main, String... args) throws Exception {
    Process process = start(jar, classes, main, args);
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, process.exitValue(), output);
    return output;
  }
}
