package dev.sluice.triggers;

import dev.sluice.api.triggers.EventSourceMapping.LastError;

/**
 * What a running trigger reports of itself for the admin API (design/triggers.md §2.4): Lambda's
 * LastProcessingResult, its last error, and its pollers and invokes now. Not kept across restarts:
 * it describes the pollers running. Immutable.
 *
 * @param lastError the last failed invoke or receive, or null: its kind is an {@link InvokeOutcome.ErrorKind}'s
 *     label, or {@code queue} for a receive refused, {@code memory} for a batch the memory budget held back
 * @param pollers pollers running
 * @param invoking invokes in flight
 */
public record TriggerStatus(String lastProcessingResult, LastError lastError, int pollers, int invoking) {
  /** Before the first invoke, in Lambda's words. */
  public static final TriggerStatus NOT_STARTED = new TriggerStatus("No records processed", null, 0, 0);
}
