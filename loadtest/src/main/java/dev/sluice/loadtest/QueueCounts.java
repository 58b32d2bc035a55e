package dev.sluice.loadtest;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.concurrent.TimeUnit;

/** A queue's message counts from GetQueueAttributes: visible, in flight and delayed. */
record QueueCounts(long visible, long inFlight, long delayed) {
  long total() {
    return visible + inFlight + delayed;
  }

  /** Asked from a thread that may block (the probes' main thread), through {@code sqs}. */
  static QueueCounts of(SqsCalls sqs, String queueUrl) throws Exception {
    JsonObject a = sqs.call("GetQueueAttributes", new JsonObject().put("QueueUrl", queueUrl)
            .put("AttributeNames", new JsonArray().add("ApproximateNumberOfMessages")
                .add("ApproximateNumberOfMessagesNotVisible").add("ApproximateNumberOfMessagesDelayed")))
        .await(10, TimeUnit.SECONDS).getJsonObject("Attributes");
    return new QueueCounts(Long.parseLong(a.getString("ApproximateNumberOfMessages", "0")),
        Long.parseLong(a.getString("ApproximateNumberOfMessagesNotVisible", "0")),
        Long.parseLong(a.getString("ApproximateNumberOfMessagesDelayed", "0")));
  }
}
