package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.exportservice.client.Export;
import dev.exportservice.client.ExportClient;
import dev.exportservice.client.ExportServiceException;
import dev.exportservice.client.UnsafeExportException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A service that serves what the real one refuses at publish (a misconfigured or older one, or
 * something in between): the client's own check fails the call, unless it was built with
 * `allowUnsafeExports(true)`. A body that is not an export fails the call too.
 */
class SafetyTest {
  private static final Path VECTORS = LocalService.root().resolve("test/vectors/export-safety");

  @Test
  void aRefusedVectorFailsTheFetchUnlessUnsafeExportsAreAllowed() throws Exception {
    String served = Files.readString(VECTORS.resolve("refused-op-in-frame.json")).replace("[MODELSERVERTAG]", "bde");
    try (FakeService service = FakeService.json(200, served)) {
      UnsafeExportException refused =
          Failed.with(UnsafeExportException.class, ExportClient.builder(service.url()).build().fetch("123456", "bde"));
      assertEquals("content.datapack.anim_keyframes.open.7[2]", refused.path());
      assertEquals("op", refused.found());
      assertEquals("unsafe_export", refused.code());
      assertEquals(200, refused.status());

      ExportClient dangerous = ExportClient.builder(service.url()).allowUnsafeExports(true).build();
      Export export = dangerous.fetch("123456", "bde").get(30, TimeUnit.SECONDS);
      assertEquals(served, export.body());
      assertTrue(export.model().animation("open").commandsAt(14).contains("op @a"), "handed out as it is");
    }
  }

  @Test
  void aFetchedExportsSelectorsMustCarryTheTagAskedFor() throws Exception {
    String served =
        Files.readString(VECTORS.resolve("allowed-hitbox-interaction.json")).replace("[MODELSERVERTAG]", "bde");
    try (FakeService service = FakeService.json(200, served)) {
      ExportClient client = ExportClient.builder(service.url()).build();
      // What the service makes of the tag: its letters, digits, '_' and '-'.
      assertEquals(served, client.fetch("123456", "b.d e").get(30, TimeUnit.SECONDS).body());
      UnsafeExportException other = Failed.with(UnsafeExportException.class, client.fetch("123456", "gate"));
      assertEquals("selector", other.reason());
      assertTrue(other.found().startsWith("tag=bde_"), other.found());
      // No tag asked for: the client asks for one of this copy's own, and a selector of another
      // tag (here a service that ignores the tag asked for) is refused.
      UnsafeExportException ignored = Failed.with(UnsafeExportException.class, client.fetch("123456", null));
      assertTrue(ignored.getMessage().contains("tag=bde_"), ignored.getMessage());
    }
  }

  @Test
  void aBodyThatIsNotAnExportFailsTheFetchNamingWhatWasFound() throws Exception {
    try (FakeService service = FakeService.json(200, "{\"status\":\"ok\",\"items\":[]}")) {
      ExportServiceException error =
          Failed.with(ExportServiceException.class, ExportClient.builder(service.url()).build().fetch("123456", null));
      assertEquals(200, error.status());
      assertEquals(
          "The document is not an export ({\"content\": {...}}): it is an object with the members [status, items] and no content.",
          error.getMessage());
      Export unchecked = ExportClient.builder(service.url()).allowUnsafeExports(true).build().fetch("123456", null).get(30, TimeUnit.SECONDS);
      assertThrows(ExportServiceException.class, unchecked::model);
    }
  }
}
