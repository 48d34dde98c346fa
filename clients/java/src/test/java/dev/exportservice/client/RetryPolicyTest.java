package dev.exportservice.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * When a call tries again: the errors worth another try, the wait each asks for, the budget a
 * call's waits share, and a wait that holds no thread. e2e.RetryTest, e2e.LifecycleTest and
 * e2e.TransportTest show the same against a service.
 */
class RetryPolicyTest {
  private static final RetryPolicy HALF_A_MINUTE = new RetryPolicy(Duration.ofSeconds(30));

  private static RateLimitedException limited(long retryAfterSeconds) {
    return new RateLimitedException("limited", "rate_limited", null, "", retryAfterSeconds);
  }

  private static ServiceUnavailableException notReady(long retryAfterSeconds) {
    return new ServiceUnavailableException("not ready", "not_ready", null, "", retryAfterSeconds);
  }

  @Test
  void a429OrA503ThatSaysHowLongIsWaitedOut() {
    assertEquals(7_000, HALF_A_MINUTE.nextWaitMillis(limited(7), 0));
    assertEquals(2_000, HALF_A_MINUTE.nextWaitMillis(notReady(2), 0));
  }

  @Test
  void neverRetriesAnErrorThatSaysNoWaitOrThatAWaitCannotChange() {
    List<ExportException> finals =
        List.of(
            limited(-1),
            notReady(-1),
            new InvalidRequestException("bad id", 400, "invalid_id", null, ""),
            new ExportNotFoundException("no export", 404, "not_found", null, ""),
            new ExportExpiredException("expired", 410, "expired", null, ""),
            new ExportServiceException("HTTP 500", 500, null, null, "", null),
            new ExportServiceException("no answer", 0, null, null, "", null));
    for (ExportException error : finals) {
      assertEquals(-1, HALF_A_MINUTE.nextWaitMillis(error, 0), error.getMessage());
    }
  }

  @Test
  void waitsAtLeastTheMinimumSoThatRetryAfterZeroIsNoLoop() {
    assertEquals(Duration.ofSeconds(1), RetryPolicy.MIN_WAIT);
    assertEquals(ExportClient.MIN_RETRY_WAIT, RetryPolicy.MIN_WAIT);
    assertEquals(1_000, HALF_A_MINUTE.nextWaitMillis(limited(0), 0));
    assertEquals(1_000, HALF_A_MINUTE.nextWaitMillis(notReady(0), 0));
  }

  @Test
  void aWaitPastWhatIsLeftOfTheBudgetIsNotStarted() {
    RetryPolicy tenSeconds = new RetryPolicy(Duration.ofSeconds(10));
    assertEquals(10_000, tenSeconds.nextWaitMillis(limited(10), 0), "a wait that fills the budget");
    assertEquals(-1, tenSeconds.nextWaitMillis(limited(11), 0));
    assertEquals(1_000, tenSeconds.nextWaitMillis(limited(1), 9_000), "what is left of it");
    assertEquals(-1, tenSeconds.nextWaitMillis(limited(1), 9_001));
    assertEquals(-1, tenSeconds.nextWaitMillis(notReady(0), 9_500), "the minimum counts too");
  }

  @Test
  void theDefaultBudgetOfZeroNeverRetries() {
    RetryPolicy never = new RetryPolicy(Duration.ZERO);
    assertEquals(-1, never.nextWaitMillis(limited(0), 0));
    assertEquals(-1, never.nextWaitMillis(notReady(1), 0));
  }

  @Test
  void hugeWaitsAndBudgetsNeitherOverflowNorThrow() {
    long aLifetime = 1_000_000_000_000_000_000L;
    assertEquals(-1, HALF_A_MINUTE.nextWaitMillis(limited(aLifetime), 0));
    assertEquals(-1, HALF_A_MINUTE.nextWaitMillis(limited(aLifetime), 29_000));
    RetryPolicy forever = new RetryPolicy(ChronoUnit.FOREVER.getDuration());
    assertEquals(5_000, forever.nextWaitMillis(limited(5), Long.MAX_VALUE - 5_000));
    assertEquals(-1, forever.nextWaitMillis(limited(5), Long.MAX_VALUE - 4_999));
    assertEquals(Long.MAX_VALUE, forever.nextWaitMillis(limited(aLifetime), 0));
  }

  @Test
  void theNextTryRunsAfterTheWaitWithoutHoldingTheCallersThread() throws Exception {
    CompletableFuture<Thread> ranOn = new CompletableFuture<>();
    long start = System.nanoTime();
    RetryPolicy.after(1_000, () -> ranOn.complete(Thread.currentThread()));
    long returnedMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(returnedMillis < 500, "returned after " + returnedMillis + " ms");
    Thread thread = ranOn.get(30, TimeUnit.SECONDS);
    long ranMillis = (System.nanoTime() - start) / 1_000_000;
    assertTrue(ranMillis >= 1_000, "ran after " + ranMillis + " ms");
    assertNotSame(Thread.currentThread(), thread);
  }
}
