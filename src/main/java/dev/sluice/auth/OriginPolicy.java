package dev.sluice.auth;

import java.util.List;
import java.util.Locale;

/**
 * Which browser pages may open the push bridge. A browser sends its page's {@code Origin} with every
 * WebSocket handshake and cross-site request, and lets any page open a WebSocket to any host: without
 * this check, a page on another site could ride on a user's network position (or a token in a
 * link) and subscribe to queues (cross-site WebSocket hijacking). Pages Sluice serves itself are
 * always allowed; requests without an Origin come from programs, not pages, and are not concerned.
 * Immutable.
 */
public final class OriginPolicy {
  private final List<String> allowed;
  private final boolean any;

  /** {@code allowed}: lower-case {@code scheme://host[:port]} origins, or "*" for any. */
  public OriginPolicy(List<String> allowed) {
    this.allowed = List.copyOf(allowed);
    this.any = allowed.contains("*");
  }

  /**
   * Whether a request with this {@code Origin} header (null when absent) may pass, for a server
   * reached at {@code host} (the request's Host header) over TLS or not.
   */
  public boolean allows(String origin, String host, boolean tls) {
    if (origin == null || any) {
      return true;
    }
    String o = origin.trim().toLowerCase(Locale.ROOT);
    if (host != null && o.equals((tls ? "https://" : "http://") + host.trim().toLowerCase(Locale.ROOT))) {
      return true;
    }
    return allowed.contains(o);
  }

  /** Whether pages of any site may connect ("*"). */
  public boolean any() {
    return any;
  }
}
