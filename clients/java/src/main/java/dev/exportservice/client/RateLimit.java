package dev.exportservice.client;

import java.util.List;
import java.util.Objects;

/**
 * The rate-limit state a response reported. {@code limit}, {@code remaining} and
 * {@code resetSeconds} describe the window nearest exhaustion ({@code X-RateLimit-Limit},
 * {@code -Remaining}, {@code -Reset}); {@code windows} lists every window the service enforces
 * (the {@code RateLimit} and {@code RateLimit-Policy} fields), empty when they were absent.
 *
 * @param limit requests allowed in that window
 * @param remaining requests left in it
 * @param resetSeconds whole seconds until it resets (a duration, not a timestamp)
 * @param windows every window, e.g. {@code short} (120 per 60 s) and {@code long} (1200 per hour)
 */
public record RateLimit(long limit, long remaining, long resetSeconds, List<Window> windows) {
  /**
   * Copies {@code windows}.
   *
   * @param limit requests allowed in the window
   * @param remaining requests left in the window
   * @param resetSeconds whole seconds until the window resets
   * @param windows every window the service enforces
   */
  public RateLimit {
    windows = List.copyOf(Objects.requireNonNull(windows, "windows"));
  }

  /**
   * One window of the limit. Every client address has all of them at once; exceeding any one
   * gives a 429.
   *
   * @param name the window's name, e.g. {@code short}
   * @param remaining requests left in it
   * @param resetSeconds whole seconds until it resets
   * @param limit requests allowed per window, or -1 when {@code RateLimit-Policy} did not say
   * @param periodSeconds the window's length in seconds, or -1 when not said
   */
  public record Window(
      String name, long remaining, long resetSeconds, long limit, long periodSeconds) {
    /**
     * Checks the name.
     *
     * @param name the name
     * @param remaining requests left in the window
     * @param resetSeconds whole seconds until the window resets
     * @param limit requests allowed in the window
     * @param periodSeconds the window's length in seconds, or -1
     */
    public Window {
      Objects.requireNonNull(name, "name");
    }
  }
}
