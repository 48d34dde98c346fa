package dev.exportservice.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * When a call tries again, and how long it waits first. Only a 429 or a 503 that says how long to
 * wait is worth another try (a 503 with {@code Retry-After} is this service's "just published, not
 * visible here yet"); anything else is final. A wait is never shorter than {@link #MIN_WAIT}, so
 * that a {@code Retry-After: 0} cannot become a loop of requests, and a call's waits together stay
 * within its budget ({@code maxRetryWait}): a wait that would go past it is not started. The
 * waits hold no thread: the next try runs on the JDK's delayed executor.
 *
 * <p>The client keeps one policy for its lifetime; the time a call has waited so far is the
 * call's own, passed in with each answer.
 */
final class RetryPolicy {
  /** Shortest wait between two tries. */
  static final Duration MIN_WAIT = Duration.ofSeconds(1);

  /** The total a call may wait; {@code Long.MAX_VALUE} for a budget too long to count. */
  private final long budgetMillis;

  /** A policy that waits at most {@code budget} in all for one call; zero never retries. */
  RetryPolicy(Duration budget) {
    this.budgetMillis = saturatedMillis(budget);
  }

  /**
   * Milliseconds to wait before trying again after {@code error}, when the call has waited
   * {@code waitedMillis} already; -1 when the call ends with the error: it is not worth retrying,
   * or the wait it asks for does not fit in what is left of the budget.
   */
  long nextWaitMillis(ExportException error, long waitedMillis) {
    long waitMillis = askedWaitMillis(error);
    // Compared without adding: a Retry-After of 10^18 seconds must not overflow.
    if (waitMillis < 0 || waitMillis > budgetMillis - waitedMillis) return -1;
    return waitMillis;
  }

  /** Runs {@code next} once {@code waitMillis} have passed, without holding any thread. */
  static void after(long waitMillis, Runnable next) {
    CompletableFuture.delayedExecutor(waitMillis, TimeUnit.MILLISECONDS).execute(next);
  }

  /**
   * The wait {@code error} asks for, in milliseconds and at least {@link #MIN_WAIT}; -1 when it is
   * not a 429 or 503, or does not say how long to wait.
   */
  private static long askedWaitMillis(ExportException error) {
    long seconds;
    if (error instanceof RateLimitedException) {
      seconds = ((RateLimitedException) error).retryAfterSeconds();
    } else if (error instanceof ServiceUnavailableException) {
      seconds = ((ServiceUnavailableException) error).retryAfterSeconds();
    } else {
      return -1;
    }
    if (seconds < 0) return -1;
    return Math.max(MIN_WAIT.toMillis(), TimeUnit.SECONDS.toMillis(seconds));
  }

  private static long saturatedMillis(Duration duration) {
    try {
      return duration.toMillis();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }
}
