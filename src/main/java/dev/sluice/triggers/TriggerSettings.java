package dev.sluice.triggers;

import dev.sluice.api.triggers.LambdaException;
import java.util.List;

/**
 * How a trigger batches and scales, named and bounded as Lambda's SQS event source mappings are (AWS
 * Lambda Developer Guide: Lambda parameters for Amazon SQS event source mappings; API reference:
 * CreateEventSourceMapping, ScalingConfig): BatchSize 1–10,000 (10 by default; above 10 only with a
 * batching window; 1–10 on a FIFO queue), MaximumBatchingWindowInSeconds 0–300 (none on a FIFO
 * queue), FunctionResponseTypes a subset of ReportBatchItemFailures, and
 * ScalingConfig.MaximumConcurrency 2–1,000 or none. A request's shape is checked first
 * (ValidationException, AWS's wording), then the rules between settings and the queue
 * (InvalidParameterValueException). Immutable.
 *
 * @param maximumConcurrency the most batches in flight at once, or 0 for no setting (up to 1,000)
 */
public record TriggerSettings(int batchSize, int batchingWindowSeconds, boolean reportBatchItemFailures,
    int maximumConcurrency) {

  static final int DEFAULT_BATCH_SIZE = 10;
  static final int MAX_BATCH_SIZE = 10_000;
  static final int MAX_UNWINDOWED_BATCH_SIZE = 10;
  static final int MAX_WINDOW_SECONDS = 300;
  static final int MIN_CONCURRENCY = 2;
  static final int MAX_CONCURRENCY = 1_000;
  static final String REPORT_BATCH_ITEM_FAILURES = "ReportBatchItemFailures";

  /**
   * The settings of a request (null: not given, the default) for a trigger of a FIFO queue or not;
   * throws Lambda's refusal of the first setting that is out of bounds.
   */
  public static TriggerSettings check(Integer batchSize, Integer windowSeconds, List<String> responseTypes,
      Integer maximumConcurrency, boolean fifoQueue) {
    int size = bounded(batchSize, DEFAULT_BATCH_SIZE, 1, MAX_BATCH_SIZE, "batchSize");
    int window = bounded(windowSeconds, 0, 0, MAX_WINDOW_SECONDS, "maximumBatchingWindowInSeconds");
    boolean report = false;
    for (String type : responseTypes == null ? List.<String>of() : responseTypes) {
      if (!REPORT_BATCH_ITEM_FAILURES.equals(type)) {
        throw LambdaException.validation(responseTypes, "functionResponseTypes",
            "Member must satisfy enum value set: [" + REPORT_BATCH_ITEM_FAILURES + "]");
      }
      report = true;
    }
    int concurrency = maximumConcurrency == null ? 0
        : bounded(maximumConcurrency, 0, MIN_CONCURRENCY, MAX_CONCURRENCY, "scalingConfig.maximumConcurrency");
    if (fifoQueue) {
      if (size > MAX_UNWINDOWED_BATCH_SIZE) {
        throw LambdaException.invalidValue("Invalid request provided: Batch size must be between 1 and 10 for FIFO"
            + " queues");
      }
      if (window > 0) {
        throw LambdaException.invalidValue("Invalid request provided: Batching window is not supported for FIFO"
            + " queues");
      }
    } else if (size > MAX_UNWINDOWED_BATCH_SIZE && window == 0) {
      throw LambdaException.invalidValue("Maximum batch window in seconds must be greater than 0 if maximum batch size"
          + " is greater than 10");
    }
    return new TriggerSettings(size, window, report, concurrency);
  }

  private static int bounded(Integer value, int absent, int least, int most, String member) {
    if (value == null) {
      return absent;
    }
    if (value < least) {
      throw LambdaException.validation(value, member, "Member must have value greater than or equal to " + least);
    }
    if (value > most) {
      throw LambdaException.validation(value, member, "Member must have value less than or equal to " + most);
    }
    return value;
  }
}
