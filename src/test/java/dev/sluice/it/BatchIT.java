package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.model.BatchEntryIdsNotDistinctException;
import software.amazon.awssdk.services.sqs.model.BatchRequestTooLongException;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchResponse;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.EmptyBatchRequestException;
import software.amazon.awssdk.services.sqs.model.InvalidBatchEntryIdException;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.TooManyEntriesInBatchRequestException;

/** The three batch actions: partial failures as values, whole-request errors as exceptions. */
class BatchIT extends SharedServerIT {
  static SendMessageBatchRequestEntry entry(String id, String body) {
    return SendMessageBatchRequestEntry.builder().id(id).messageBody(body).build();
  }

  static ChangeMessageVisibilityBatchRequestEntry visibility(String id, String receiptHandle) {
    return ChangeMessageVisibilityBatchRequestEntry.builder().id(id).receiptHandle(receiptHandle).visibilityTimeout(0)
        .build();
  }

  static DeleteMessageBatchRequestEntry delete(String id, String receiptHandle) {
    return DeleteMessageBatchRequestEntry.builder().id(id).receiptHandle(receiptHandle).build();
  }

  @Test
  void aBatchWithOneBadEntryEnqueuesTheOthers() {
    String url = sqs.createQueue(b -> b.queueName("partial").attributesWithStrings(Map.of("MaximumMessageSize", "1024")))
        .queueUrl();
    SendMessageBatchResponse r = sqs.sendMessageBatch(b -> b.queueUrl(url).entries(
        entry("ok1", "fine"), entry("bad", "nul \u0000 char"), entry("big", "x".repeat(1025)), entry("ok2", "fine too")));
    assertEquals(List.of("ok1", "ok2"), r.successful().stream().map(s -> s.id()).toList());
    Map<String, BatchResultErrorEntry> failed = new java.util.HashMap<>();
    r.failed().forEach(f -> failed.put(f.id(), f));
    assertEquals("InvalidMessageContents", failed.get("bad").code());
    assertTrue(failed.get("bad").senderFault());
    assertEquals("InvalidParameterValue", failed.get("big").code());
    assertEquals("One or more parameters cannot be validated. Reason: Message must be shorter than 1024 bytes.",
        failed.get("big").message());
    assertEquals(2, sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages().size());
  }

  @Test
  void wholeBatchErrorsComeInSqsOrder() {
    String url = sqs.createQueue(b -> b.queueName("batch-errors")).queueUrl();
    assertThrows(EmptyBatchRequestException.class, () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(List.of())));
    List<SendMessageBatchRequestEntry> eleven = IntStream.range(0, 11).mapToObj(i -> entry("e" + i, "b")).toList();
    TooManyEntriesInBatchRequestException tooMany = assertThrows(TooManyEntriesInBatchRequestException.class,
        () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(eleven)));
    assertEquals("Maximum number of entries per request are 10. You have sent 11.", tooMany.awsErrorDetails().errorMessage());
    assertThrows(InvalidBatchEntryIdException.class,
        () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("message:x", "b"))));
    assertThrows(BatchEntryIdsNotDistinctException.class,
        () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("same", "a"), entry("same", "b"))));
    List<SendMessageBatchRequestEntry> tooLong = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      tooLong.add(entry("big" + i, "x".repeat(i == 0 ? 262_145 : 262_144)));
    }
    BatchRequestTooLongException e = assertThrows(BatchRequestTooLongException.class,
        () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(tooLong)));
    assertEquals("Batch requests cannot be longer than 1048576 bytes. You have sent 1048577 bytes.",
        e.awsErrorDetails().errorMessage());
  }

  @Test
  void whenSeveralBatchErrorsApplyTheFirstInSqsOrderWins() {
    String url = sqs.createQueue(b -> b.queueName("batch-precedence")).queueUrl();
    List<SendMessageBatchRequestEntry> elevenWithBadIds = IntStream.range(0, 11)
        .mapToObj(i -> entry(i == 0 ? "bad:id" : "same", "b")).toList();
    assertThrows(TooManyEntriesInBatchRequestException.class,
        () -> sqs.sendMessageBatch(b -> b.queueUrl(url).entries(elevenWithBadIds)));
    String big = "x".repeat(600_000);
    assertThrows(InvalidBatchEntryIdException.class, () -> sqs.sendMessageBatch(b -> b.queueUrl(url)
        .entries(entry("ok", big), entry("ok", big), entry("bad:id", big))));
    assertThrows(BatchEntryIdsNotDistinctException.class, () -> sqs.sendMessageBatch(b -> b.queueUrl(url)
        .entries(entry("dup", big), entry("dup", big))));
  }

  @Test
  void deleteAndChangeVisibilityBatchesReportEachEntry() {
    String url = sqs.createQueue(b -> b.queueName("receipt-batches")).queueUrl();
    sqs.sendMessageBatch(b -> b.queueUrl(url).entries(entry("a", "1"), entry("b", "2"), entry("c", "3")));
    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages();
    assertEquals(3, got.size());
    ChangeMessageVisibilityBatchResponse changed = sqs.changeMessageVisibilityBatch(b -> b.queueUrl(url).entries(
        visibility("v1", got.get(0).receiptHandle()), visibility("v2", "garbage")));
    assertEquals(List.of("v1"), changed.successful().stream().map(s -> s.id()).toList());
    assertEquals("ReceiptHandleIsInvalid", changed.failed().get(0).code());
    DeleteMessageBatchResponse deleted = sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(
        delete("d1", got.get(1).receiptHandle()), delete("d2", got.get(2).receiptHandle()), delete("d3", "garbage")));
    assertEquals(2, deleted.successful().size());
    assertEquals("d3", deleted.failed().get(0).id());
    assertFalse(deleted.failed().isEmpty());
    assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(10)).messages().size());
    assertThrows(EmptyBatchRequestException.class, () -> sqs.deleteMessageBatch(b -> b.queueUrl(url).entries(List.of())));
  }
}
