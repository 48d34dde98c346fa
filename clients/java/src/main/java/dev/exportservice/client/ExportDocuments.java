package dev.exportservice.client;

import dev.exportservice.client.internal.json.JsonReader;
import dev.exportservice.client.internal.model.ModelReader;
import dev.exportservice.client.internal.model.NotAnExport;

/**
 * An export document's text on its way through the rooms: the JSON room parses it, the model
 * room reads it; what they report becomes the client's {@link ExportServiceException}, whose
 * status says where the text came from ({@link DocumentOrigin}).
 */
final class ExportDocuments {
  private ExportDocuments() {}

  /** The parsed JSON of {@code json}, or the exception naming what it is instead. */
  static Object parse(String json, DocumentOrigin origin) {
    try {
      return JsonReader.parse(json);
    } catch (IllegalArgumentException notJson) {
      throw failure(ModelReader.notJson(notJson.getMessage(), notJson), origin);
    }
  }

  /**
   * The tag a parsed document's parts carry as {@code <tag>_<n>} (what its selectors must begin
   * with), or the placeholder when none does.
   */
  static String tagOf(Object document) {
    String tag = ModelReader.tagOf(document);
    return tag == null || tag.isEmpty() ? ExportSafety.PLACEHOLDER : tag;
  }

  /** Throws unless a parsed document is of the form {@code {"content": {...}}}. */
  static void requireExport(Object document, DocumentOrigin origin) {
    try {
      ModelReader.requireExport(document);
    } catch (NotAnExport notAnExport) {
      throw failure(notAnExport, origin);
    }
  }

  /** The model of a parsed document. */
  static Model model(Object document, DocumentOrigin origin) {
    try {
      return new Model(ModelReader.read(document));
    } catch (NotAnExport notAnExport) {
      throw failure(notAnExport, origin);
    }
  }

  private static ExportServiceException failure(NotAnExport notAnExport, DocumentOrigin origin) {
    return new ExportServiceException(notAnExport.getMessage(), origin.status, null, null, "", notAnExport.getCause());
  }
}
