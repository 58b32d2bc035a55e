package dev.sluice.model;

/**
 * A receive as the queue model sees it: how many, for how long hidden, which attributes, and the
 * ReceiveRequestAttemptId that makes a FIFO receive repeatable (null when none was given).
 */
public record ReceiveSpec(int maxMessages, int visibilitySeconds, AttributeSelection selection, String attemptId) {
  public ReceiveSpec(int maxMessages, int visibilitySeconds, AttributeSelection selection) {
    this(maxMessages, visibilitySeconds, selection, null);
  }
}
