package dev.sluice.loadtest;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The DLQ redrive rate: makes the scenario's queue a dead-letter queue (another queue names it in
 * its RedrivePolicy), fills it with {@code --messages} messages, starts a message move task to a
 * third queue without a rate limit, and polls ListMessageMoveTasks until the task completes.
 */
final class MoveProbe {
  private MoveProbe() {}

  static void run(List<Worker> workers, String dlqUrl, Options o) throws Exception {
    SqsCalls sqs = workers.get(0).sqs;
    String dlqArn = sqs.call("GetQueueAttributes", new JsonObject().put("QueueUrl", dlqUrl)
            .put("AttributeNames", List.of("QueueArn")))
        .await(10, TimeUnit.SECONDS).getJsonObject("Attributes").getString("QueueArn");
    String suffix = "-" + System.currentTimeMillis();
    sqs.call("CreateQueue", new JsonObject().put("QueueName", "move-source" + suffix).put("Attributes",
            new JsonObject().put("RedrivePolicy", "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":1}")))
        .await(10, TimeUnit.SECONDS);
    String destinationUrl = sqs.call("CreateQueue", new JsonObject().put("QueueName", "move-destination" + suffix))
        .await(10, TimeUnit.SECONDS).getString("QueueUrl");
    String destinationArn = sqs.call("GetQueueAttributes", new JsonObject().put("QueueUrl", destinationUrl)
            .put("AttributeNames", List.of("QueueArn")))
        .await(10, TimeUnit.SECONDS).getJsonObject("Attributes").getString("QueueArn");
    int messages = o.integer("messages", 200_000);
    Prefill.run(workers, dlqUrl, messages, o.bodyBytes());
    long start = System.nanoTime();
    sqs.call("StartMessageMoveTask", new JsonObject().put("SourceArn", dlqArn).put("DestinationArn", destinationArn))
        .await(10, TimeUnit.SECONDS);
    JsonObject task;
    do {
      Thread.sleep(50);
      task = sqs.call("ListMessageMoveTasks", new JsonObject().put("SourceArn", dlqArn))
          .await(10, TimeUnit.SECONDS).getJsonArray("Results").getJsonObject(0);
    } while (task.getString("Status").equals("RUNNING"));
    double seconds = (System.nanoTime() - start) / 1e9;
    long moved = task.getLong("ApproximateNumberOfMessagesMoved");
    System.out.printf("move task %s: %d of %d messages in %.2f s (%.0f msgs/s)%n",
        task.getString("Status"), moved, task.getLong("ApproximateNumberOfMessagesToMove"), seconds, moved / seconds);
  }
}
