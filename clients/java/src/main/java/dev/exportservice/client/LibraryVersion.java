package dev.exportservice.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The library's name and version, written into library.properties by the build. */
final class LibraryVersion {
  static final String NAME;
  static final String VERSION;
  /** The User-Agent product token, e.g. {@code export-client/0.5.0}. */
  static final String PRODUCT;

  static {
    Properties properties = new Properties();
    try (InputStream in = LibraryVersion.class.getResourceAsStream("library.properties")) {
      if (in != null) properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    NAME = properties.getProperty("name", "export-client");
    VERSION = properties.getProperty("version", "unknown");
    PRODUCT = NAME + "/" + VERSION;
  }

  private LibraryVersion() {}
}
