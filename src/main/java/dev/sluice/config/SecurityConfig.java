package dev.sluice.config;

import java.util.Map;

/**
 * Who may call: SigV4 secrets by access key id (empty: authentication off), the bearer token of
 * /metrics and the push bridges (empty: open), and the PEM files of the HTTPS listener (empty: plain
 * HTTP). {@link #toString} leaves the secrets out.
 */
public record SecurityConfig(Map<String, String> credentials, String managementToken, String tlsCertPath,
    String tlsKeyPath) {
  public boolean tls() {
    return !tlsCertPath.isEmpty();
  }

  @Override
  public String toString() {
    return "SecurityConfig[keys=" + credentials.keySet() + ", managementToken=" + (managementToken.isEmpty() ? "off" : "set")
        + ", tls=" + tls() + "]";
  }
}
