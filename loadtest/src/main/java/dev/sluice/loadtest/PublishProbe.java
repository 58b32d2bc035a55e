package dev.sluice.loadtest;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publish throughput and latency: a topic with {@code --subscribers N} queues subscribed (raw with
 * {@code --raw true}; with {@code --filter half} each subscription's filter policy passes the
 * publishes whose attribute {@code n} is 50 or more, half of them), then publishes of
 * {@code --body-bytes} bytes in a closed loop (or at {@code --rate}). Reported: publishes/s, copies
 * delivered/s and the publish's latency. The queues are not drained: size the server's memory
 * budget (or the run) for subscribers × publishes × body.
 */
final class PublishProbe {
  private PublishProbe() {}

  static void run(List<Worker> workers, String queue, Options o) throws Exception {
    int subscribers = o.integer("subscribers", 1);
    boolean raw = Boolean.parseBoolean(o.string("raw", "false"));
    boolean half = o.string("filter", "none").equals("half");
    SnsCalls sns = workers.get(0).sns;
    String topic = SnsCalls.element(sns.call(SnsCalls.form("CreateTopic", "Name", queue + "-topic"))
        .await(10, TimeUnit.SECONDS), "TopicArn");
    String attributes = "{\"RawMessageDelivery\":\"" + raw + "\""
        + (half ? ",\"FilterPolicy\":\"{\\\"n\\\":[{\\\"numeric\\\":[\\\">=\\\",50]}]}\"" : "") + "}";
    for (int i = 0; i < subscribers; i++) {
      String name = queue + "-" + i;
      workers.get(0).sqs.call("CreateQueue", new JsonObject().put("QueueName", name)).await(10, TimeUnit.SECONDS);
      List<String> pairs = new ArrayList<>(List.of("TopicArn", topic, "Protocol", "sqs",
          "Endpoint", "arn:aws:sqs:us-east-1:000000000000:" + name));
      JsonObject attrs = new JsonObject(attributes);
      int n = 1;
      for (String key : attrs.fieldNames()) {
        pairs.addAll(List.of("Attributes.entry." + n + ".key", key, "Attributes.entry." + n + ".value",
            attrs.getString(key)));
        n++;
      }
      sns.call(SnsCalls.form("Subscribe", pairs.toArray(String[]::new))).await(10, TimeUnit.SECONDS);
    }
    System.out.printf("topic %s: %d subscribers, %s, filter %s, %d-byte messages%n", topic, subscribers,
        raw ? "raw" : "enveloped (signed)", half ? "passing half" : "none", o.bodyBytes());
    String body = "x".repeat(o.bodyBytes());
    // One request body per value of n, made once: the load generator shares the cores.
    Buffer[] requests = new Buffer[100];
    for (int k = 0; k < requests.length; k++) {
      requests[k] = SnsCalls.form("Publish", "TopicArn", topic, "Message", body,
          "MessageAttributes.entry.1.Name", "n", "MessageAttributes.entry.1.Value.DataType", "Number",
          "MessageAttributes.entry.1.Value.StringValue", Integer.toString(k));
    }
    AtomicLong sequence = new AtomicLong();
    LoadTest.report("Publish to " + subscribers + " queues (messages/s: copies delivered)",
        LoadTest.measure(o, workers, sqs -> {
          int k = (int) (sequence.getAndIncrement() % 100);
          int copies = !half || k >= 50 ? subscribers : 0;
          return sqs.sns().call(requests[k]).map(answer -> copies);
        }), o);
  }
}
