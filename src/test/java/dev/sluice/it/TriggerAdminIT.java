package dev.sluice.it;

import static dev.sluice.it.TriggerAdminClient.MAPPINGS;
import static dev.sluice.it.TriggerAdminClient.queueArn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.it.TriggerAdminClient.Answer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * The triggers' admin API through HTTP against the packaged jar: the management token guards it;
 * create, get, list (paged by Marker, filtered), update (enable and disable) and delete answer as
 * Lambda's API does, with its states and error codes; the rules between a trigger and its queue
 * (existence, visibility timeout, FIFO) are checked; header values are
 * never answered. The target is never reached here: every trigger is disabled or points nowhere.
 */
class TriggerAdminIT {
  static final String TOKEN = "t0ken";
  static final String NOWHERE = "http://127.0.0.1:9/hook";
  static PackagedServer server;
  static SqsClient sqs;
  static TriggerAdminClient admin;

  @BeforeAll
  static void start() throws Exception {
    server = PackagedServer.start("trigger-admin-", Map.of("SLUICE_MANAGEMENT_TOKEN", TOKEN));
    sqs = server.sqs("AKID", "secret");
    admin = new TriggerAdminClient(server.endpoint, TOKEN);
    sqs.createQueue(b -> b.queueName("admin-a"));
    sqs.createQueue(b -> b.queueName("admin-b"));
    sqs.createQueue(b -> b.queueName("admin-short").attributes(Map.of(QueueAttributeName.VISIBILITY_TIMEOUT, "5")));
    sqs.createQueue(b -> b.queueName("admin.fifo").attributes(Map.of(QueueAttributeName.FIFO_QUEUE, "true")));
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.close();
    server.close();
  }

  static JsonObject request(String queue, String url) {
    return new JsonObject().put("EventSourceArn", queueArn(queue)).put("FunctionName", url).put("Enabled", false);
  }

  static Answer create(JsonObject body) throws Exception {
    return admin.call("POST", MAPPINGS, body.encode());
  }

  @Test
  void theManagementTokenGuardsEveryRoute() throws Exception {
    TriggerAdminClient anonymous = new TriggerAdminClient(server.endpoint, null);
    TriggerAdminClient wrong = new TriggerAdminClient(server.endpoint, "not-it");
    for (TriggerAdminClient c : List.of(anonymous, wrong)) {
      assertEquals(401, c.call("GET", MAPPINGS, null).status());
      assertEquals(401, c.call("POST", MAPPINGS, request("admin-a", NOWHERE + "/x").encode()).status());
      assertEquals(401, c.call("DELETE", MAPPINGS + "00000000-0000-0000-0000-000000000000", null).status());
      assertEquals(401, c.call("GET", "/2015-03-31/functions", null).status());
      assertEquals(401, c.call("GET", "/2015-03-31/x/%2e%2e/event-source-mappings/", null).status());
    }
    assertEquals(404, admin.call("GET", "/2015-03-31/functions", null).status());
    assertEquals(405, admin.call("PATCH", MAPPINGS, "{}").status());
  }

  @Test
  void aTriggerIsCreatedReadChangedAndDeletedAsLambdaAnswers() throws Exception {
    JsonObject body = request("admin-a", NOWHERE + "/lifecycle").put("BatchSize", 5)
        .put("FunctionResponseTypes", new JsonArray().add("ReportBatchItemFailures"))
        .put("ScalingConfig", new JsonObject().put("MaximumConcurrency", 4))
        .put("FilterCriteria", new JsonObject().put("Filters", new JsonArray()
            .add(new JsonObject().put("Pattern", "{\"body\": {\"kind\": [\"refund\"]}}"))))
        .put("TargetConfig", new JsonObject().put("TimeoutSeconds", 20)
            .put("Headers", new JsonObject().put("Authorization", "Bearer secret-value")));
    Answer created = create(body);
    assertEquals(202, created.status(), created.toString());
    JsonObject m = created.json();
    assertEquals("Disabled", m.getString("State"));
    String uuid = m.getString("UUID");
    assertEquals(List.of("UUID", "BatchSize", "MaximumBatchingWindowInSeconds", "EventSourceArn", "FilterCriteria",
        "FunctionArn", "LastModified", "LastProcessingResult", "State", "StateTransitionReason",
        "FunctionResponseTypes", "ScalingConfig", "EventSourceMappingArn", "TargetConfig", "Concurrency", "Origin"),
        new ArrayList<>(m.fieldNames()));
    assertEquals(5, m.getInteger("BatchSize"));
    assertEquals(NOWHERE + "/lifecycle", m.getString("FunctionArn"));
    assertEquals("arn:aws:lambda:us-east-1:000000000000:event-source-mapping:" + uuid,
        m.getString("EventSourceMappingArn"));
    assertEquals("No records processed", m.getString("LastProcessingResult"));
    assertEquals("USER_INITIATED", m.getString("StateTransitionReason"));
    assertEquals(4, m.getJsonObject("ScalingConfig").getInteger("MaximumConcurrency"));
    assertEquals("<redacted>", m.getJsonObject("TargetConfig").getJsonObject("Headers").getString("Authorization"));
    assertFalse(created.json().encode().contains("secret-value"), "header values are never answered");
    assertEquals("api", m.getString("Origin"));

    assertEquals("Disabled", admin.get(uuid).getString("State"));
    Answer enabling = admin.call("PUT", MAPPINGS + uuid, "{\"Enabled\": true, \"BatchSize\": 7}");
    assertEquals(202, enabling.status(), enabling.toString());
    assertEquals("Enabling", enabling.json().getString("State"));
    assertEquals(7, enabling.json().getInteger("BatchSize"));
    assertEquals(4, enabling.json().getJsonObject("ScalingConfig").getInteger("MaximumConcurrency"), "kept");
    Answer updating = admin.call("PUT", MAPPINGS + uuid, "{\"ScalingConfig\": {}, \"FilterCriteria\": {}}");
    assertEquals("Updating", updating.json().getString("State"));
    assertNull(updating.json().getJsonObject("ScalingConfig"), "an empty ScalingConfig removes it");
    assertNull(updating.json().getJsonObject("FilterCriteria"), "an empty FilterCriteria removes it");
    assertEquals("Enabled", admin.get(uuid).getString("State"));
    assertEquals("Disabling", admin.call("PUT", MAPPINGS + uuid, "{\"Enabled\": false}").json().getString("State"));

    Answer conflict = create(request("admin-a", NOWHERE + "/lifecycle"));
    assertEquals(409, conflict.status());
    assertEquals("ResourceConflictException", conflict.errorType());
    assertEquals("An event source mapping with SQS arn (\" " + queueArn("admin-a") + " \") and function (\" "
        + NOWHERE + "/lifecycle \") already exists. Please update or delete the existing mapping with UUID " + uuid,
        conflict.json().getString("message"));

    Answer deleted = admin.delete(uuid);
    assertEquals(202, deleted.status());
    assertEquals("Deleting", deleted.json().getString("State"));
    Answer gone = admin.call("GET", MAPPINGS + uuid, null);
    assertEquals(404, gone.status());
    assertEquals("ResourceNotFoundException", gone.errorType());
    assertEquals(new JsonObject().put("Type", "User").put("message", "The resource you requested does not exist."),
        gone.json());
    assertEquals(404, admin.delete(uuid).status());
    assertEquals(404, admin.call("GET", MAPPINGS + "not-a-uuid", null).status());
  }

  @Test
  void listingPagesByMarkerAndFilters() throws Exception {
    List<String> made = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      made.add(create(request("admin-b", NOWHERE + "/list-" + i)).json().getString("UUID"));
    }
    String arn = URLEncoder.encode(queueArn("admin-b"), StandardCharsets.UTF_8);
    List<String> listed = new ArrayList<>();
    String marker = null;
    int pages = 0;
    do {
      Answer page = admin.call("GET", MAPPINGS + "?EventSourceArn=" + arn + "&MaxItems=2"
          + (marker == null ? "" : "&Marker=" + marker), null);
      assertEquals(200, page.status(), page.toString());
      page.json().getJsonArray("EventSourceMappings").forEach(o -> listed.add(((JsonObject) o).getString("UUID")));
      marker = page.json().getString("NextMarker");
      pages++;
    } while (marker != null);
    assertEquals(3, pages);
    assertEquals(made.stream().sorted().toList(), listed, "every trigger of the queue once, by UUID");
    Answer one = admin.call("GET", MAPPINGS + "?FunctionName="
        + URLEncoder.encode(NOWHERE + "/list-3", StandardCharsets.UTF_8), null);
    assertEquals(List.of(made.get(3)), one.json().getJsonArray("EventSourceMappings").stream()
        .map(o -> ((JsonObject) o).getString("UUID")).toList());
    Answer tooMany = admin.call("GET", MAPPINGS + "?MaxItems=10001", null);
    assertEquals(400, tooMany.status());
    assertEquals("ValidationException", tooMany.errorType());
    for (String uuid : made) {
      admin.delete(uuid);
    }
  }

  @Test
  void badRequestsGetLambdasErrors() throws Exception {
    assertRefused("ValidationException", "1 validation error detected: Value '0' at 'batchSize' failed to satisfy"
        + " constraint: Member must have value greater than or equal to 1",
        request("admin-a", NOWHERE).put("BatchSize", 0));
    assertRefused("InvalidParameterValueException", "Maximum batch window in seconds must be greater than 0 if"
        + " maximum batch size is greater than 10", request("admin-a", NOWHERE).put("BatchSize", 11));
    assertRefused("InvalidParameterValueException", "Invalid request provided: Batching window is not supported for"
        + " FIFO queues", request("admin.fifo", NOWHERE).put("MaximumBatchingWindowInSeconds", 1));
    assertRefused("InvalidParameterValueException", "Queue visibility timeout: 5 seconds is less than Function"
        + " timeout: 30 seconds", request("admin-short", NOWHERE));
    assertRefused("InvalidParameterValueException", "The queue " + queueArn("admin-missing") + " does not exist.",
        request("admin-missing", NOWHERE));
    assertRefused("InvalidParameterValueException", "The queue arn:aws:sqs:us-east-1:222222222222:admin-a does not"
        + " exist.", request("admin-a", NOWHERE).put("EventSourceArn", "arn:aws:sqs:us-east-1:222222222222:admin-a"));
    assertRefused("InvalidParameterValueException", "Invalid filter pattern definition.", request("admin-a", NOWHERE)
        .put("FilterCriteria", new JsonObject().put("Filters", new JsonArray().add(new JsonObject()
            .put("Pattern", "not a pattern")))));
    assertRefused("InvalidParameterValueException", "StartingPosition is not valid for SQS event sources.",
        request("admin-a", NOWHERE).put("StartingPosition", "LATEST"));
    assertRefused("InvalidParameterValueException", "KMSKeyArn is not supported by Sluice.",
        request("admin-a", NOWHERE).put("KMSKeyArn", "k"));
    assertRefused("InvalidParameterValueException", "TargetConfig.Headers: Host is set by Sluice, not by a trigger.",
        request("admin-a", NOWHERE).put("TargetConfig", new JsonObject().put("Headers",
            new JsonObject().put("Host", "elsewhere"))));
    assertRefused("InvalidParameterValueException", "FunctionName may have no user info and no fragment: give"
        + " credentials in TargetConfig.Headers.", request("admin-a", "http://user:pw@127.0.0.1:9/x"));
    Answer notJson = admin.call("POST", MAPPINGS, "{not json");
    assertEquals(400, notJson.status());
    assertEquals("InvalidParameterValueException", notJson.errorType());
    Answer badArn = create(request("admin-a", NOWHERE).put("EventSourceArn", "admin-a"));
    assertEquals("ValidationException", badArn.errorType());
    assertFalse(badArn.json().containsKey("Type"), "a ValidationException has no Type, as AWS answers it");
    Answer huge = admin.call("POST", MAPPINGS, "{\"FunctionName\": \"" + "x".repeat(300 * 1024) + "\"}");
    assertEquals(413, huge.status(), "a body over 256 KiB is not read");
    assertEquals("RequestTooLargeException", huge.errorType());
  }

  static void assertRefused(String type, String message, JsonObject body) throws Exception {
    Answer a = create(body);
    assertEquals(400, a.status(), a.toString());
    assertEquals(type, a.errorType(), a.toString());
    assertEquals(message, a.json().getString("message"));
    assertTrue(a.json().size() <= 2, a.toString());
  }
}
