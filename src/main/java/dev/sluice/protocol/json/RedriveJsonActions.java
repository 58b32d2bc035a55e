package dev.sluice.protocol.json;

import static dev.sluice.protocol.json.JsonOut.object;

import dev.sluice.api.CancelMessageMoveTask;
import dev.sluice.api.ListDeadLetterSourceQueues;
import dev.sluice.api.ListMessageMoveTasks;
import dev.sluice.api.StartMessageMoveTask;
import java.util.Map;

/** JSON codecs of the dead-letter queue actions (sqs-reference §2.16, §7.3). */
final class RedriveJsonActions {
  private RedriveJsonActions() {}

  static void register(Map<String, JsonAction> table) {
    table.put("ListDeadLetterSourceQueues", (e, c, in, g) -> e.redrive()
        .listDeadLetterSourceQueues(c, new ListDeadLetterSourceQueues.Request(
            in.string("QueueUrl"), in.integer("MaxResults"), in.string("NextToken")))
        // "queueUrls" is lower-case and required in the model: written even when empty.
        .map(r -> object().strings("queueUrls", r.queueUrls()).stringIf("NextToken", r.nextToken()).endObject()));
    table.put("StartMessageMoveTask", (e, c, in, g) -> e.redrive()
        .startMessageMoveTask(new StartMessageMoveTask.Request(
            in.string("SourceArn"), in.string("DestinationArn"), in.integer("MaxNumberOfMessagesPerSecond")))
        .map(r -> object().string("TaskHandle", r.taskHandle()).endObject()));
    table.put("ListMessageMoveTasks", (e, c, in, g) -> e.redrive()
        .listMessageMoveTasks(new ListMessageMoveTasks.Request(in.string("SourceArn"), in.integer("MaxResults")))
        .map(RedriveJsonActions::tasks));
    table.put("CancelMessageMoveTask", (e, c, in, g) -> e.redrive()
        .cancelMessageMoveTask(new CancelMessageMoveTask.Request(in.string("TaskHandle")))
        .map(r -> object().number("ApproximateNumberOfMessagesMoved", r.approximateNumberOfMessagesMoved()).endObject()));
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
