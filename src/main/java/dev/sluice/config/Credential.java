package dev.sluice.config;

import java.util.List;
import java.util.Map;

/**
 * One configured SigV4 credential: its access key id and secret, the account a request signed with
 * it acts as, and its IAM-style permission statements as the configuration gives them (each a
 * mapping with Effect, Action and Resource, checked for shape only; empty when none are listed).
 * {@link #toString} leaves the secret out.
 */
public record Credential(String accessKeyId, String secretAccessKey, String accountId,
    List<Map<String, Object>> permissions) {
  @Override
  public String toString() {
    return "Credential[" + accessKeyId + ", account " + accountId + ", " + permissions.size() + " permissions]";
  }
}
