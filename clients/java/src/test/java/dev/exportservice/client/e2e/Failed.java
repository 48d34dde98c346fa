package dev.exportservice.client.e2e;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** What a call that must fail failed with, as a caller's {@code whenComplete} receives it. */
final class Failed {
  private Failed() {}

  /** Waits for the call (at most a minute) and returns its exception, checked to be a `type`. */
  static <E extends Throwable> E with(Class<E> type, CompletableFuture<?> call) {
    CompletableFuture<Throwable> failure = new CompletableFuture<>();
    call.whenComplete(
        (value, error) -> {
          if (error == null) failure.completeExceptionally(new AssertionError("succeeded: " + value));
          else failure.complete(error);
        });
    Throwable error;
    try {
      error = failure.get(60, TimeUnit.SECONDS);
    } catch (Exception e) {
      return fail("expected " + type.getSimpleName(), e);
    }
    // The future itself completes with the library's exception, not a CompletionException.
    return assertInstanceOf(type, error, () -> "got " + error);
  }
}
