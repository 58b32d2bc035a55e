package dev.sluice.api.triggers;

import java.util.List;

/**
 * A trigger as the admin API answers it, Lambda's EventSourceMappingConfiguration with Sluice's
 * additions (design/triggers.md §2.4). Header values are never part of it: only their names.
 *
 * @param functionArn the target's URL (Lambda names the function there)
 * @param maximumConcurrency 0 when the trigger has no ScalingConfig
 * @param state Enabled, Disabled, or a transition (Creating, Updating, Enabling, Disabling, Deleting)
 * @param lastError the last failure, or null
 * @param maximum the most invokes the trigger makes at once
 */
public record EventSourceMapping(String uuid, int batchSize, int maximumBatchingWindowInSeconds,
    String eventSourceArn, List<String> filterPatterns, String functionArn, long lastModifiedMillis,
    String lastProcessingResult, String state, String stateTransitionReason, boolean reportBatchItemFailures,
    int maximumConcurrency, String eventSourceMappingArn, Target target, LastError lastError, int pollers,
    int invoking, int maximum, String origin) {

  /** TargetConfig as answered: the names of its headers, not their values. */
  public record Target(String protocol, int timeoutSeconds, List<String> headerNames, boolean verifyTls,
      int maxConcurrentRequests) {}

  /** The last failed invoke or receive: when, its kind, the target's HTTP status (0: none came), its records, what happened. */
  public record LastError(long timeMillis, String kind, int httpStatus, int records, String message) {}

  /** A page of ListEventSourceMappings; {@code nextMarker} null on the last. */
  public record Page(List<EventSourceMapping> mappings, String nextMarker) {}
}
