package dev.sluice.auth;

import java.net.URI;
import java.util.List;
import java.util.Locale;

/**
 * Who may use the web console's API (design/console.md §2.3): with a management token, whoever
 * sends it; without one, any caller that names this server by a {@code Host} a DNS-rebinding page
 * cannot have: {@code localhost}, an IP literal, or the host of {@code http.publicBaseUrl}. (A
 * page whose name an attacker re-points at 127.0.0.1 is same-origin to the browser, so the
 * console's header and origin checks pass; its {@code Host} is still the attacker's name.)
 * Immutable.
 */
public final class ConsolePolicy {
  private final boolean enabled;
  private final ManagementToken token;
  private final String publicHost;
  private final OriginPolicy origins;

  /** {@code publicBaseUrl}: http.publicBaseUrl, empty when none is set. */
  ConsolePolicy(boolean enabled, ManagementToken token, String publicBaseUrl) {
    this.enabled = enabled;
    this.token = token;
    URI base = publicBaseUrl.isBlank() ? null : URI.create(publicBaseUrl.trim().toLowerCase(Locale.ROOT));
    this.publicHost = base == null ? "" : hostOf(base.getRawAuthority());
    // Behind a proxy that ends TLS or renames the host, the pages' origin is the public URL's.
    this.origins = new OriginPolicy(base == null ? List.of() : List.of(base.getScheme() + "://" + base.getRawAuthority()));
  }

  /** Whether /console is served at all (console.enabled). */
  public boolean enabled() {
    return enabled;
  }

  /** The management token; when it is required, the console takes it as {@code Authorization: Bearer} only. */
  public ManagementToken token() {
    return token;
  }

  /**
   * Whether a page whose {@code Origin} is this (null when absent) may call the API: this server's
   * own origin as the request reached it ({@code host}, {@code tls}), or http.publicBaseUrl's.
   */
  public boolean originAllowed(String origin, String host, boolean tls) {
    return origins.allows(origin, host, tls);
  }

  /** Whether a request without a token may name this server by {@code hostHeader} (with or without a port). */
  public boolean hostAllowed(String hostHeader) {
    if (hostHeader == null) {
      return false;
    }
    String host = hostOf(hostHeader.trim().toLowerCase(Locale.ROOT));
    return host.equals("localhost") || isIpv4(host) || isIpv6(host) || (!publicHost.isEmpty() && host.equals(publicHost));
  }

  /** The host of a Host header or a URL's authority: without its port, an IPv6 literal with its brackets. */
  static String hostOf(String authority) {
    if (authority.startsWith("[")) {
      int end = authority.indexOf(']');
      return end < 0 ? authority : authority.substring(0, end + 1);
    }
    int colon = authority.lastIndexOf(':');
    return colon < 0 ? authority : authority.substring(0, colon);
  }

  private static boolean isIpv4(String host) {
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      return false;
    }
    for (String p : parts) {
      if (!p.matches("[0-9]{1,3}") || Integer.parseInt(p) > 255) {
        return false;
      }
    }
    return true;
  }

  /** A bracketed IPv6 literal, as a Host header carries one. */
  private static boolean isIpv6(String host) {
    return host.length() > 2 && host.startsWith("[") && host.endsWith("]")
        && host.substring(1, host.length() - 1).matches("[0-9a-f:.]*:[0-9a-f:.]*");
  }
}
