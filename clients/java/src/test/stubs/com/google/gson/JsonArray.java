package com.google.gson;

import java.util.Iterator;

/** Stub of Gson's JsonArray. */
public final class JsonArray extends JsonElement implements Iterable<JsonElement> {
  @Override
  public Iterator<JsonElement> iterator() {
    throw new UnsupportedOperationException("stub");
  }
}
