package com.example.printmodel;

import dev.exportservice.client.Animation;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.Model;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A plugin's shape without a server, to try the client from a terminal: {@code onEnable} builds
 * the one client, a command fetches off the main thread, and the answer hops back to the main
 * thread (here a single thread standing in for the server's scheduler) to be used.
 *
 * <pre>java -cp export-client-0.5.0.jar:print-model-1.0.jar com.example.printmodel.PrintModel http://127.0.0.1:8787 123456</pre>
 *
 * prints the model published under that ID, fetched under the tag {@code printed_1}, and exits
 * with 1 when the fetch failed.
 */
public final class PrintModel {
  private final ExecutorService mainThread = Executors.newSingleThreadExecutor();
  private ExportClient exports;

  /** What a plugin does once when the server enables it: one client for every command. */
  void onEnable(URI service) {
    exports = ExportClient.builder(service)
        .userAgent("PrintModel/1.0")
        .maxRetryWait(Duration.ofSeconds(30)) // waits out a 429 or a 503 of up to 30 s in all
        .build();
  }

  /** A command: fetches the model and, back on the main thread, prints it; true when it could. */
  CompletableFuture<Boolean> onCommand(String id, String tag) {
    CompletableFuture<Boolean> printed = new CompletableFuture<>();
    exports.fetch(id, tag).whenComplete((export, error) -> // an HTTP thread: no server calls here
        mainThread.execute(() -> {                          // back on the main thread
          if (error != null) {
            System.out.println("Cannot load model " + id + ": " + error.getMessage());
            printed.complete(false);
            return;
          }
          print(export.model()); // read and checked for safety when the export arrived
          printed.complete(true);
        }));
    return printed;
  }

  private static void print(Model model) {
    System.out.println(model.partCount() + " parts tagged " + model.tag() + ", summoned by "
        + model.summonCommands().size() + " command(s) of at most " + Model.MAX_COMMAND_CHARS + " characters");
    for (String name : model.animationNames()) {
      Animation animation = model.animation(name);
      System.out.println("animation " + name + ": " + animation.durationTicks() + " ticks, "
          + animation.frameTicks().size() + " frames");
    }
    for (String name : model.soundNames()) {
      System.out.println("sound " + name + ": " + model.sound(name).durationTicks() + " ticks");
    }
    System.out.println(model.hitboxCommands().size() + " hitbox command(s), "
        + model.removeCommands().size() + " removal command(s)");
  }

  /** What a server does when the plugin is disabled. */
  void onDisable() {
    mainThread.shutdown();
  }

  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: PrintModel <service URL> <six-digit ID>");
      System.exit(2);
    }
    PrintModel plugin = new PrintModel();
    plugin.onEnable(URI.create(args[0]));
    boolean printed = plugin.onCommand(args[1], "printed_1").join();
    plugin.onDisable();
    System.exit(printed ? 0 : 1);
  }
}
