package dev.sluice.api;

/**
 * One failed entry of a batch action, reported as a value in the 200 response (AWS API reference:
 * SendMessageBatch).
 */
public record BatchResultErrorEntry(String id, boolean senderFault, String code, String message) {

  public static BatchResultErrorEntry of(String id, SqsException e) {
    return new BatchResultErrorEntry(id, e.code().senderFault(), e.code().queryCode(), e.getMessage());
  }
}
