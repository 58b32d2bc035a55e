package dev.sluice.protocol.query;

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
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The Query protocol's XML rendering of every response (the SQS Query API guide): the result's members
 * under {@code <{Action}Result>}, lists flattened into repeated elements named by the model
 * ({@code <QueueUrl>}, {@code <Message>}, {@code <…ResultEntry>}), maps as repeated
 * {@code <Attribute><Name/><Value/>} or {@code <Tag><Key/><Value/>}; absent members omitted.
 */
public final class XmlResponses {
  static final String NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

  private XmlResponses() {}

  private static final Renderers<XmlWriter> RENDERERS = new Renderers<XmlWriter>()
      .put(CREATE_QUEUE, r -> new XmlWriter().element("QueueUrl", r.queueUrl()))
      .put(GET_QUEUE_URL, r -> new XmlWriter().element("QueueUrl", r.queueUrl()))
      .put(LIST_QUEUES, r -> queueUrls(r.queueUrls(), r.nextToken()))
      .put(GET_QUEUE_ATTRIBUTES, r -> pairs(new XmlWriter(), "Attribute", "Name", "Value", r.attributes()))
      .put(LIST_QUEUE_TAGS, r -> pairs(new XmlWriter(), "Tag", "Key", "Value", r.tags()))
      .put(SEND_MESSAGE, r -> new XmlWriter()
          .element("MessageId", r.messageId())
          .element("MD5OfMessageBody", r.md5OfMessageBody())
          .elementIf("MD5OfMessageAttributes", r.md5OfMessageAttributes())
          .elementIf("MD5OfMessageSystemAttributes", r.md5OfMessageSystemAttributes())
          .elementIf("SequenceNumber", r.sequenceNumber()))
      .put(SEND_MESSAGE_BATCH, XmlResponses::sendBatchResult)
      .put(RECEIVE_MESSAGE, XmlResponses::receiveResult)
      .put(DELETE_MESSAGE_BATCH, r -> batchIds("DeleteMessageBatchResultEntry", r))
      .put(CHANGE_MESSAGE_VISIBILITY_BATCH, r -> batchIds("ChangeMessageVisibilityBatchResultEntry", r))
      .put(LIST_DEAD_LETTER_SOURCE_QUEUES, r -> queueUrls(r.queueUrls(), r.nextToken()))
      .put(START_MESSAGE_MOVE_TASK, r -> new XmlWriter().element("TaskHandle", r.taskHandle()))
      .put(LIST_MESSAGE_MOVE_TASKS, XmlResponses::tasks)
      .put(CANCEL_MESSAGE_MOVE_TASK, r -> new XmlWriter()
          .element("ApproximateNumberOfMessagesMoved", r.approximateNumberOfMessagesMoved()))
      .complete();

  /**
   * The whole response document: {@code <{Action}Result>} only for actions with output, as
   * {@code <{Action}Result/>} when the result has no member (an empty receive), then the request id.
   */
  public static <R> String document(SqsAction<?, R> action, R response, String requestId) {
    String name = action.name();
    StringBuilder b = new StringBuilder(256).append("<?xml version=\"1.0\"?><").append(name)
        .append("Response xmlns=\"").append(NAMESPACE).append("\">");
    if (action.hasOutput()) {
      XmlWriter result = RENDERERS.render(action, response);
      if (result.isEmpty()) {
        b.append('<').append(name).append("Result/>");
      } else {
        b.append('<').append(name).append("Result>").append(result).append("</").append(name).append("Result>");
      }
    }
    return b.append("<ResponseMetadata><RequestId>").append(Xml.escape(requestId))
        .append("</RequestId></ResponseMetadata></").append(name).append("Response>").toString();
  }

  private static XmlWriter queueUrls(List<String> queueUrls, String nextToken) {
    XmlWriter w = new XmlWriter();
    queueUrls.forEach(url -> w.element("QueueUrl", url));
    return w.elementIf("NextToken", nextToken);
  }

  private static XmlWriter pairs(XmlWriter w, String element, String key, String value, Map<String, String> map) {
    if (map != null) {
      map.forEach((k, v) -> w.open(element).element(key, k).element(value, v).close(element));
    }
    return w;
  }

  private static XmlWriter sendBatchResult(SendMessageBatch.Response r) {
    XmlWriter w = new XmlWriter();
    for (SendMessageBatch.ResultEntry s : r.successful()) {
      w.open("SendMessageBatchResultEntry")
          .element("Id", s.id())
          .element("MessageId", s.messageId())
          .element("MD5OfMessageBody", s.md5OfMessageBody())
          .elementIf("MD5OfMessageAttributes", s.md5OfMessageAttributes())
          .elementIf("MD5OfMessageSystemAttributes", s.md5OfMessageSystemAttributes())
          .elementIf("SequenceNumber", s.sequenceNumber())
          .close("SendMessageBatchResultEntry");
    }
    return failed(w, r.failed());
  }

  private static XmlWriter batchIds(String entry, BatchIdsResponse r) {
    XmlWriter w = new XmlWriter();
    r.successfulIds().forEach(id -> w.open(entry).element("Id", id).close(entry));
    return failed(w, r.failed());
  }

  private static XmlWriter failed(XmlWriter w, List<BatchResultErrorEntry> failed) {
    for (BatchResultErrorEntry f : failed) {
      w.open("BatchResultErrorEntry").element("Id", f.id()).element("SenderFault", f.senderFault())
          .element("Code", f.code()).element("Message", f.message()).close("BatchResultErrorEntry");
    }
    return w;
  }

  private static XmlWriter receiveResult(ReceiveMessage.Response r) {
    XmlWriter w = new XmlWriter();
    for (ReceiveMessage.Message m : r.messages()) {
      w.open("Message")
          .element("MessageId", m.messageId())
          .element("ReceiptHandle", m.receiptHandle())
          .element("MD5OfBody", m.md5OfBody())
          .element("Body", m.body());
      pairs(w, "Attribute", "Name", "Value", m.attributes());
      if (m.messageAttributes() != null) {
        w.element("MD5OfMessageAttributes", m.md5OfMessageAttributes());
        m.messageAttributes().forEach((name, v) -> messageAttribute(w, name, v));
      }
      w.close("Message");
    }
    return w;
  }

  /** {@code <MessageAttribute><Name/><Value><StringValue/>|<BinaryValue/><DataType/></Value>}. */
  private static void messageAttribute(XmlWriter w, String name, MessageAttributeValue v) {
    w.open("MessageAttribute").element("Name", name).open("Value");
    if (v.isBinaryType()) {
      w.element("BinaryValue", Base64.getEncoder().encodeToString(v.binaryValue()));
    } else {
      w.element("StringValue", v.stringValue());
    }
    w.element("DataType", v.dataType()).close("Value").close("MessageAttribute");
  }

  private static XmlWriter tasks(ListMessageMoveTasks.Response r) {
    XmlWriter w = new XmlWriter();
    for (ListMessageMoveTasks.Result t : r.results()) {
      w.open("ListMessageMoveTasksResultEntry")
          .elementIf("TaskHandle", t.taskHandle())
          .element("Status", t.status())
          .element("SourceArn", t.sourceArn())
          .elementIf("DestinationArn", t.destinationArn());
      if (t.maxNumberOfMessagesPerSecond() != null) {
        w.element("MaxNumberOfMessagesPerSecond", t.maxNumberOfMessagesPerSecond());
      }
      w.element("ApproximateNumberOfMessagesMoved", t.approximateNumberOfMessagesMoved())
          .element("ApproximateNumberOfMessagesToMove", t.approximateNumberOfMessagesToMove())
          .elementIf("FailureReason", t.failureReason())
          .element("StartedTimestamp", t.startedTimestamp())
          .close("ListMessageMoveTasksResultEntry");
    }
    return w;
  }
}
