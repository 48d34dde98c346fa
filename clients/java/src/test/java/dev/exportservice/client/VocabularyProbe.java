package dev.exportservice.client;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code java VocabularyProbe FILE...}: the check's verdict on each export file, one line each
 * ({@code safe}, or the refusal's reason and found). {@link VocabularyFileTest} runs it in a JVM
 * whose class path puts another vocabulary file before the jar's.
 */
public final class VocabularyProbe {
  private VocabularyProbe() {}

  public static void main(String[] args) throws Exception {
    for (String file : args) {
      try {
        ExportSafety.check(Files.readString(Path.of(file)));
        System.out.println("safe");
      } catch (UnsafeExportException unsafe) {
        System.out.println(unsafe.reason() + " " + unsafe.found());
      }
    }
  }
}
