package dev.sluice.it;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** The triggers' admin API as an operator calls it: JSON over HTTP with the management token. */
final class TriggerAdminClient {
  static final String MAPPINGS = "/2015-03-31/event-source-mappings/";
  private final URI endpoint;
  private final String token;
  private final HttpClient http = HttpClient.newHttpClient();

  TriggerAdminClient(URI endpoint, String token) {
    this.endpoint = endpoint;
    this.token = token;
  }

  /** An answer: its status, error type (x-amzn-ErrorType, or null) and JSON body (or null). */
  record Answer(int status, String errorType, JsonObject json) {}

  Answer call(String method, String pathAndQuery, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(endpoint.resolve(pathAndQuery))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    return new Answer(r.statusCode(), r.headers().firstValue("x-amzn-ErrorType").orElse(null),
        r.body().startsWith("{") ? new JsonObject(r.body()) : null);
  }

  /** Creates a trigger; fails unless the API accepted it. */
  JsonObject create(JsonObject request) throws Exception {
    Answer a = call("POST", MAPPINGS, request.encode());
    if (a.status() != 202) {
      throw new AssertionError("create refused: " + a);
    }
    return a.json();
  }

  /**
   * A trigger of {@code queueName} to a handler on the Lambda invoke path {@code functionUrl}, which
   * reports batch item failures and has 2 s to answer; answers its UUID.
   */
  String lambdaTrigger(String queueName, String functionUrl) throws Exception {
    JsonObject mapping = create(new JsonObject().put("EventSourceArn", queueArn(queueName))
        .put("FunctionName", functionUrl)
        .put("FunctionResponseTypes", new io.vertx.core.json.JsonArray().add("ReportBatchItemFailures"))
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 2)));
    if (!"lambda".equals(mapping.getJsonObject("TargetConfig").getString("Protocol"))) {
      throw new AssertionError("not spoken to as the Lambda invoke path: " + mapping);
    }
    return mapping.getString("UUID");
  }

  JsonObject get(String uuid) throws Exception {
    return call("GET", MAPPINGS + uuid, null).json();
  }

  Answer delete(String uuid) throws Exception {
    return call("DELETE", MAPPINGS + uuid, null);
  }

  /** The ARN of a queue of the default account and region. */
  static String queueArn(String name) {
    return "arn:aws:sqs:us-east-1:000000000000:" + name;
  }
}
