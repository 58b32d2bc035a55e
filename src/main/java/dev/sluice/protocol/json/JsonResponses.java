package dev.sluice.protocol.json;

import static dev.sluice.protocol.SqsActions.CANCEL_MESSAGE_MOVE_TASK;
import static dev.sluice.protocol.SqsActions.CHANGE_MESSAGE_VISIBILITY_BATCH;
import static dev.sluice.protocol.SqsActions.CREATE_QUEUE;
import static dev.sluice.protocol.SqsActions.DELETE_MESSAGE_BATCH;
import static dev.sluice.protocol.SqsActions.GET_QUEUE_ATTRIBUTES;
import static dev.sluice.protocol.SqsActions.GET_QUEUE_URL;
import static dev.sluice.protocol.SqsActions.LIST_DEAD_LETTER_SOURCE_QUEUES;
import static dev.sluice.protocol.SqsActions.LIST_MESSAGE_MOVE_TASKS;
import static dev.sluice.protocol.SqsActions.LIST_QUEUES;
import static dev.sluice.protocol.SqsActions.LIST_QUEUE_TAGS;
import static dev.sluice.protocol.SqsActions.RECEIVE_MESSAGE;
import static dev.sluice.protocol.SqsActions.SEND_MESSAGE;
import static dev.sluice.protocol.SqsActions.SEND_MESSAGE_BATCH;
import static dev.sluice.protocol.SqsActions.START_MESSAGE_MOVE_TASK;

import dev.sluice.api.BatchIdsResponse;
import dev.sluice.api.BatchResultErrorEntry;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.MessageAttributeValue;
import dev.sluice.api.ReceiveMessage;
import dev.sluice.api.SendMessageBatch;
import dev.sluice.protocol.Renderers;
import dev.sluice.protocol.SqsAction;
import io.vertx.core.buffer.Buffer;
import java.util.List;
import java.util.Map;

/**
 * The AWS JSON 1.0 rendering of every response (member names as in the SQS API reference). Empty or
 * absent members are omitted, as AWS does (the AWS JSON protocol guide): no {@code "Messages": []}, no
 * {@code "Failed": []}, no {@code "Tags": {}}. Actions without output answer {@code {}}.
 */
public final class JsonResponses {
  private JsonResponses() {}

  private static final Renderers<JsonWriter> RENDERERS = new Renderers<JsonWriter>()
      .put(CREATE_QUEUE, r -> object().string("QueueUrl", r.queueUrl()).endObject())
      .put(GET_QUEUE_URL, r -> object().string("QueueUrl", r.queueUrl()).endObject())
      .put(LIST_QUEUES, r -> object().stringsIf("QueueUrls", r.queueUrls()).stringIf("NextToken", r.nextToken())
          .endObject())
      .put(GET_QUEUE_ATTRIBUTES, r -> object().stringMapIf("Attributes", r.attributes()).endObject())
      .put(LIST_QUEUE_TAGS, r -> object().stringMapIf("Tags", r.tags()).endObject())
      .put(SEND_MESSAGE, r -> object()
          .string("MessageId", r.messageId())
          .string("MD5OfMessageBody", r.md5OfMessageBody())
          .stringIf("MD5OfMessageAttributes", r.md5OfMessageAttributes())
          .stringIf("MD5OfMessageSystemAttributes", r.md5OfMessageSystemAttributes())
          .stringIf("SequenceNumber", r.sequenceNumber())
          .endObject())
      .put(SEND_MESSAGE_BATCH, JsonResponses::sendBatchResult)
      .put(RECEIVE_MESSAGE, JsonResponses::receiveResult)
      .put(DELETE_MESSAGE_BATCH, JsonResponses::batchIds)
      .put(CHANGE_MESSAGE_VISIBILITY_BATCH, JsonResponses::batchIds)
      // "queueUrls" is lower-case and required in the model: written even when empty.
      .put(LIST_DEAD_LETTER_SOURCE_QUEUES, r -> object().strings("queueUrls", r.queueUrls())
          .stringIf("NextToken", r.nextToken()).endObject())
      .put(START_MESSAGE_MOVE_TASK, r -> object().string("TaskHandle", r.taskHandle()).endObject())
      .put(LIST_MESSAGE_MOVE_TASKS, JsonResponses::tasks)
      .put(CANCEL_MESSAGE_MOVE_TASK, r -> object()
          .number("ApproximateNumberOfMessagesMoved", r.approximateNumberOfMessagesMoved()).endObject())
      .complete();

  /** The response body of {@code action}. */
  public static <R> Buffer render(SqsAction<?, R> action, R response) {
    return (action.hasOutput() ? RENDERERS.render(action, response) : object().endObject()).toBuffer();
  }

  private static JsonWriter object() {
    return new JsonWriter().beginObject();
  }

  private static JsonWriter sendBatchResult(SendMessageBatch.Response r) {
    JsonWriter w = object();
    if (!r.successful().isEmpty()) {
      w.beginArray("Successful");
      for (SendMessageBatch.ResultEntry s : r.successful()) {
        w.beginObject()
            .string("Id", s.id())
            .string("MessageId", s.messageId())
            .string("MD5OfMessageBody", s.md5OfMessageBody())
            .stringIf("MD5OfMessageAttributes", s.md5OfMessageAttributes())
            .stringIf("MD5OfMessageSystemAttributes", s.md5OfMessageSystemAttributes())
            .stringIf("SequenceNumber", s.sequenceNumber())
            .endObject();
      }
      w.endArray();
    }
    failedIf(w, r.failed());
    return w.endObject();
  }

  private static JsonWriter receiveResult(ReceiveMessage.Response r) {
    JsonWriter w = object();
    if (r.messages().isEmpty()) {
      return w.endObject(); // no "Messages" member at all when empty (AWS API reference: ReceiveMessage)
    }
    w.beginArray("Messages");
    for (ReceiveMessage.Message m : r.messages()) {
      w.beginObject()
          .string("MessageId", m.messageId())
          .string("ReceiptHandle", m.receiptHandle())
          .string("MD5OfBody", m.md5OfBody())
          .string("Body", m.body())
          .stringMapIf("Attributes", m.attributes());
      if (m.messageAttributes() != null) {
        w.string("MD5OfMessageAttributes", m.md5OfMessageAttributes());
        messageAttributes(w, m.messageAttributes());
      }
      w.endObject();
    }
    return w.endArray().endObject();
  }

  private static void messageAttributes(JsonWriter w, Map<String, MessageAttributeValue> attributes) {
    w.beginObject("MessageAttributes");
    for (Map.Entry<String, MessageAttributeValue> e : attributes.entrySet()) {
      MessageAttributeValue v = e.getValue();
      w.beginObject(e.getKey()).string("DataType", v.dataType());
      if (v.isBinaryType()) {
        w.base64("BinaryValue", v.binaryValue()); // standard base64 with padding, as AWS writes blobs
      } else {
        w.string("StringValue", v.stringValue());
      }
      w.endObject();
    }
    w.endObject();
  }

  private static JsonWriter batchIds(BatchIdsResponse r) {
    JsonWriter w = object();
    if (!r.successfulIds().isEmpty()) {
      w.beginArray("Successful");
      r.successfulIds().forEach(id -> w.beginObject().string("Id", id).endObject());
      w.endArray();
    }
    failedIf(w, r.failed());
    return w.endObject();
  }

  private static void failedIf(JsonWriter w, List<BatchResultErrorEntry> failed) {
    if (failed.isEmpty()) {
      return;
    }
    w.beginArray("Failed");
    for (BatchResultErrorEntry f : failed) {
      w.beginObject().string("Id", f.id()).bool("SenderFault", f.senderFault())
          .string("Code", f.code()).string("Message", f.message()).endObject();
    }
    w.endArray();
  }

  private static JsonWriter tasks(ListMessageMoveTasks.Response r) {
    JsonWriter w = object().beginArray("Results");
    for (ListMessageMoveTasks.Result t : r.results()) {
      w.beginObject()
          .stringIf("TaskHandle", t.taskHandle())
          .string("Status", t.status())
          .string("SourceArn", t.sourceArn())
          .stringIf("DestinationArn", t.destinationArn())
          .numberIf("MaxNumberOfMessagesPerSecond", t.maxNumberOfMessagesPerSecond())
          .number("ApproximateNumberOfMessagesMoved", t.approximateNumberOfMessagesMoved())
          .number("ApproximateNumberOfMessagesToMove", t.approximateNumberOfMessagesToMove())
          .stringIf("FailureReason", t.failureReason())
          .number("StartedTimestamp", t.startedTimestamp())
          .endObject();
    }
    return w.endArray().endObject();
  }
}
