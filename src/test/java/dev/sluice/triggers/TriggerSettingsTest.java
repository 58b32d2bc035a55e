package dev.sluice.triggers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class TriggerSettingsTest {

  static LambdaException refused(Executable e) {
    return assertThrows(LambdaException.class, e);
  }

  @Test
  void lambdasDefaults() {
    assertEquals(new TriggerSettings(10, 0, false, 0), TriggerSettings.check(null, null, null, null, false));
    assertEquals(new TriggerSettings(10_000, 300, true, 1_000), TriggerSettings.check(10_000, 300,
        List.of("ReportBatchItemFailures"), 1_000, false));
  }

  @Test
  void boundsAreRefusedAsAwsValidatesTheRequest() {
    LambdaException low = refused(() -> TriggerSettings.check(0, null, null, null, false));
    assertEquals(LambdaErrorCode.VALIDATION, low.code());
    assertEquals("1 validation error detected: Value '0' at 'batchSize' failed to satisfy constraint: Member must have"
        + " value greater than or equal to 1", low.getMessage());
    assertEquals("1 validation error detected: Value '10001' at 'batchSize' failed to satisfy constraint: Member must"
        + " have value less than or equal to 10000",
        refused(() -> TriggerSettings.check(10_001, 1, null, null, false)).getMessage());
    assertEquals("1 validation error detected: Value '301' at 'maximumBatchingWindowInSeconds' failed to satisfy"
        + " constraint: Member must have value less than or equal to 300",
        refused(() -> TriggerSettings.check(null, 301, null, null, false)).getMessage());
    assertEquals("1 validation error detected: Value '1' at 'scalingConfig.maximumConcurrency' failed to satisfy"
        + " constraint: Member must have value greater than or equal to 2",
        refused(() -> TriggerSettings.check(null, null, null, 1, false)).getMessage());
    assertEquals(LambdaErrorCode.VALIDATION,
        refused(() -> TriggerSettings.check(null, null, List.of("Everything"), null, false)).code());
  }

  @Test
  void rulesBetweenSettingsAndTheQueue() {
    LambdaException unwindowed = refused(() -> TriggerSettings.check(11, 0, null, null, false));
    assertEquals(LambdaErrorCode.INVALID_PARAMETER_VALUE, unwindowed.code());
    assertEquals("Maximum batch window in seconds must be greater than 0 if maximum batch size is greater than 10",
        unwindowed.getMessage());
    assertEquals(new TriggerSettings(11, 1, false, 0), TriggerSettings.check(11, 1, null, null, false));
    assertEquals("Invalid request provided: Batch size must be between 1 and 10 for FIFO queues",
        refused(() -> TriggerSettings.check(11, null, null, null, true)).getMessage());
    assertEquals("Invalid request provided: Batching window is not supported for FIFO queues",
        refused(() -> TriggerSettings.check(10, 1, null, null, true)).getMessage());
  }
}
