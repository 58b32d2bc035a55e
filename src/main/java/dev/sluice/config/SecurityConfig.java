package dev.sluice.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Who may call: the SigV4 credentials, each with its account and permissions (empty: authentication
 * off), the bearer token of /metrics and the push bridges (empty: open), and the PEM files of the
 * HTTPS listener (empty: plain HTTP). {@link #toString} leaves the secrets out.
 */
public record SecurityConfig(List<Credential> accessKeys, String managementToken, String tlsCertPath,
    String tlsKeyPath) {
  public boolean tls() {
    return !tlsCertPath.isEmpty();
  }

  /** The SigV4 secrets by access key id; empty when authentication is off. */
  public Map<String, String> credentials() {
    Map<String, String> secrets = new LinkedHashMap<>();
    accessKeys.forEach(c -> secrets.put(c.accessKeyId(), c.secretAccessKey()));
    return Map.copyOf(secrets);
  }

  @Override
  public String toString() {
    return "SecurityConfig[keys=" + accessKeys.stream().map(Credential::accessKeyId).toList() + ", managementToken="
        + (managementToken.isEmpty() ? "off" : "set") + ", tls=" + tls() + "]";
  }
}
