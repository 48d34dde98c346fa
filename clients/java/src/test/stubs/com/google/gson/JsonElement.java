package com.google.gson;

/** Stub of Gson's JsonElement. */
public abstract class JsonElement {
  public JsonObject getAsJsonObject() {
    throw new UnsupportedOperationException("stub");
  }

  public String getAsString() {
    throw new UnsupportedOperationException("stub");
  }
}
