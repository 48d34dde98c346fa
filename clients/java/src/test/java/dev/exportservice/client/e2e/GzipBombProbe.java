package dev.exportservice.client.e2e;

import dev.exportservice.client.ExportClient;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Run in a JVM of its own with a small heap ({@code -Xmx64m}) by {@link BoundsTest}: fetches
 * from {@code args[0]} with {@code maxBodyBytes(args[1])} and prints how the call ended on one
 * line: {@code FAILED <exception class> <message> | cause <cause class>}, or {@code SUCCEEDED}.
 * A call left pending is a timeout, printed as {@code PENDING}.
 */
public final class GzipBombProbe {
  private GzipBombProbe() {}

  public static void main(String[] args) throws Exception {
    ExportClient client =
        ExportClient.builder(URI.create(args[0])).maxBodyBytes(Integer.parseInt(args[1])).build();
    try {
      client.fetch("123456", "bomb").get(60, TimeUnit.SECONDS);
      System.out.println("SUCCEEDED");
    } catch (java.util.concurrent.ExecutionException failed) {
      Throwable error = failed.getCause();
      Throwable cause = error.getCause();
      System.out.println(
          "FAILED "
              + error.getClass().getSimpleName()
              + " "
              + error.getMessage()
              + " | cause "
              + (cause == null ? "none" : cause.getClass().getSimpleName()));
    } catch (java.util.concurrent.TimeoutException pending) {
      System.out.println("PENDING");
    }
    System.exit(0);
  }
}
