package dev.sluice.loadtest;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.Promise;
import io.vertx.core.Context;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Raw AWS JSON 1.0 calls over one Vert.x HTTP client; owned by the worker verticle that made it. */
final class SqsCalls {
  /**
   * The client's context, where every call is made: an answer on a pooled connection of another
   * event loop reaches a caller elsewhere a task later, when a short one may have ended already,
   * and reading its body then never completes (the benchmark's main thread saw such calls hang).
   */
  private final Context context;
  private final HttpClient client;
  private final String host;
  private final int port;
  private final SnsCalls sns;

  SqsCalls(Context context, HttpClient client, String host, int port, SnsCalls sns) {
    this.context = context;
    this.client = client;
    this.host = host;
    this.port = port;
    this.sns = sns;
  }

  /** SNS calls over the same client, for iterations that publish. */
  SnsCalls sns() {
    return sns;
  }

  Future<JsonObject> call(String action, Buffer body) {
    return call(action, body, 0);
  }

  /** A call given up (failed) when no answer came within {@code timeoutMillis}; 0 waits for ever. */
  Future<JsonObject> call(String action, Buffer body, long timeoutMillis) {
    if (Vertx.currentContext() != context) {
      Promise<JsonObject> answered = Promise.promise();
      context.runOnContext(v -> call(action, body, timeoutMillis).onComplete(answered));
      return answered.future();
    }
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost(host).setPort(port).setURI("/")
        .putHeader("X-Amz-Target", "AmazonSQS." + action)
        .putHeader("Content-Type", "application/x-amz-json-1.0");
    if (timeoutMillis > 0) {
      options.setIdleTimeout(timeoutMillis);
    }
    return client.request(options)
        .compose(req -> req.send(body))
        .compose(resp -> resp.body().compose(b -> resp.statusCode() == 200
            ? Future.succeededFuture(b.length() == 0 ? new JsonObject() : b.toJsonObject())
            : Future.failedFuture(new SqsError(action, resp.statusCode(), b))));
  }

  Future<JsonObject> call(String action, JsonObject body) {
    return call(action, body.toBuffer());
  }

  static Buffer sendBody(String queueUrl, String body) {
    return new JsonObject().put("QueueUrl", queueUrl).put("MessageBody", body).toBuffer();
  }

  static Buffer sendBatchBody(String queueUrl, String body, int entries) {
    JsonArray list = new JsonArray();
    for (int i = 0; i < entries; i++) {
      list.add(new JsonObject().put("Id", "e" + i).put("MessageBody", body));
    }
    return new JsonObject().put("QueueUrl", queueUrl).put("Entries", list).toBuffer();
  }

  /**
   * A SendMessageBatch to a FIFO queue: each entry gets the next group of {@code groups} in turn
   * and a deduplication id unique to this run ({@code first} onwards).
   */
  static Buffer sendFifoBatchBody(String queueUrl, String body, int entries, int groups, long first) {
    // Written by hand: this runs once per iteration on the load generator, which shares the cores.
    StringBuilder sb = new StringBuilder(256 + entries * (body.length() + 96))
        .append("{\"QueueUrl\":\"").append(queueUrl).append("\",\"Entries\":[");
    for (int i = 0; i < entries; i++) {
      long n = first + i;
      sb.append(i == 0 ? "" : ",").append("{\"Id\":\"e").append(i).append("\",\"MessageBody\":\"").append(body)
          .append("\",\"MessageGroupId\":\"g").append(n % groups).append("\",\"MessageDeduplicationId\":\"d")
          .append(n).append("\"}");
    }
    return Buffer.buffer(sb.append("]}").toString());
  }

  static Buffer receiveBody(String queueUrl, int max, int waitSeconds) {
    return new JsonObject().put("QueueUrl", queueUrl).put("MaxNumberOfMessages", max)
        .put("WaitTimeSeconds", waitSeconds).toBuffer();
  }

  /** A DeleteMessageBatch for every message of a ReceiveMessage answer, or null when it is empty. */
  static Buffer deleteBatchBody(String queueUrl, JsonObject received) {
    JsonArray messages = received.getJsonArray("Messages");
    if (messages == null || messages.isEmpty()) {
      return null;
    }
    JsonArray entries = new JsonArray();
    for (int i = 0; i < messages.size(); i++) {
      entries.add(new JsonObject().put("Id", "d" + i).put("ReceiptHandle", messages.getJsonObject(i).getString("ReceiptHandle")));
    }
    return new JsonObject().put("QueueUrl", queueUrl).put("Entries", entries).toBuffer();
  }
}
