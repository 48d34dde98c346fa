package com.google.gson;

/** Stub of Gson's JsonObject. */
public final class JsonObject extends JsonElement {
  public JsonObject getAsJsonObject(String memberName) {
    throw new UnsupportedOperationException("stub");
  }

  public JsonArray getAsJsonArray(String memberName) {
    throw new UnsupportedOperationException("stub");
  }
}
