package dev.sluice.api.triggers;

import java.util.List;
import java.util.Map;

/**
 * The body of CreateEventSourceMapping or UpdateEventSourceMapping (AWS Lambda API reference), in
 * Sluice's terms: {@code FunctionName} is the target's URL, and {@code TargetConfig} Sluice's
 * settings of it. A field not given is null; in an update, a {@link ScalingConfig} without a
 * maximum, a {@link FilterCriteria} without patterns and an empty FunctionResponseTypes remove
 * what they name, and a TargetConfig replaces the whole one.
 */
public record MappingRequest(String eventSourceArn, String functionName, Boolean enabled, Integer batchSize,
    Integer maximumBatchingWindowInSeconds, List<String> functionResponseTypes, ScalingConfig scalingConfig,
    FilterCriteria filterCriteria, TargetConfig targetConfig) {

  /** ScalingConfig; {@code maximumConcurrency} null: none. */
  public record ScalingConfig(Integer maximumConcurrency) {}

  /** FilterCriteria: the patterns of its Filters, each a JSON text. */
  public record FilterCriteria(List<String> patterns) {}

  /**
   * TargetConfig, each field null when not given: {@code protocol} {@code lambda} or {@code http},
   * the whole exchange's timeout, headers sent with each invoke, whether TLS is verified, and how
   * many requests the target takes at once.
   */
  public record TargetConfig(String protocol, Integer timeoutSeconds, Map<String, String> headers, Boolean verifyTls,
      Integer maxConcurrentRequests) {}
}
