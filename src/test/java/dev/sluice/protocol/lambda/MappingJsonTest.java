package dev.sluice.protocol.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sluice.api.triggers.EventSourceMapping;
import dev.sluice.api.triggers.LambdaErrorCode;
import dev.sluice.api.triggers.LambdaException;
import dev.sluice.api.triggers.MappingRequest;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The admin API's JSON: requests read into api records (and refused by name), mappings written as Lambda's. */
class MappingJsonTest {
  @Test
  void aCreateRequestIsReadFieldByField() {
    MappingRequest r = MappingRequests.read("{\"EventSourceArn\": \"arn:aws:sqs:us-east-1:000000000000:q\","
        + " \"FunctionName\": \"http://h/x\", \"Enabled\": false, \"BatchSize\": 20,"
        + " \"MaximumBatchingWindowInSeconds\": 5, \"FunctionResponseTypes\": [\"ReportBatchItemFailures\"],"
        + " \"ScalingConfig\": {\"MaximumConcurrency\": 3}, \"FilterCriteria\": {\"Filters\": [{\"Pattern\": \"{}\"}]},"
        + " \"TargetConfig\": {\"Protocol\": \"http\", \"TimeoutSeconds\": 9, \"Headers\": {\"A\": \"b\"},"
        + " \"VerifyTls\": false, \"MaxConcurrentRequests\": 4}}");
    assertEquals(new MappingRequest("arn:aws:sqs:us-east-1:000000000000:q", "http://h/x", false, 20, 5,
        List.of("ReportBatchItemFailures"), new MappingRequest.ScalingConfig(3),
        new MappingRequest.FilterCriteria(List.of("{}")),
        new MappingRequest.TargetConfig("http", 9, Map.of("A", "b"), false, 4)), r);
  }

  @Test
  void emptyObjectsRemoveWhatTheyNameAndAnEmptyBodyIsAnEmptyRequest() {
    MappingRequest r = MappingRequests.read("{\"ScalingConfig\": {}, \"FilterCriteria\": {}}");
    assertNull(r.scalingConfig().maximumConcurrency());
    assertEquals(List.of(), r.filterCriteria().patterns());
    assertEquals(new MappingRequest(null, null, null, null, null, null, null, null, null), MappingRequests.read(""));
  }

  @Test
  void whatSluiceDoesNotServeIsRefusedByNameNeverIgnored() {
    assertRefused("StartingPosition is not valid for SQS event sources.", "{\"StartingPosition\": \"LATEST\"}");
    assertRefused("Tags is not supported by Sluice.", "{\"Tags\": {}}");
    assertRefused("ScalingConfig.Other is not supported by Sluice.", "{\"ScalingConfig\": {\"Other\": 1}}");
    assertRefused("TargetConfig.CaCertificates is not supported by Sluice.",
        "{\"TargetConfig\": {\"CaCertificates\": \"pem\"}}");
    assertRefused("BatchSize must be a whole number.", "{\"BatchSize\": \"10\"}");
    assertRefused("BatchSize must be a whole number.", "{\"BatchSize\": 10.5}");
    assertRefused("BatchSize must be a whole number.", "{\"BatchSize\": 99999999999}");
    assertRefused("Enabled must be true or false.", "{\"Enabled\": \"yes\"}");
    assertRefused("TargetConfig.Headers: the value of A must be a string.", "{\"TargetConfig\": {\"Headers\": {\"A\": 1}}}");
    assertRefused("Invalid filter pattern definition.", "{\"FilterCriteria\": {\"Filters\": \"x\"}}");
    assertRefused("The request body is not a JSON object.", "[1]");
    assertRefused("The request body is not a JSON object.", "{");
  }

  static void assertRefused(String message, String body) {
    LambdaException e = assertThrows(LambdaException.class, () -> MappingRequests.read(body));
    assertEquals(LambdaErrorCode.INVALID_PARAMETER_VALUE, e.code());
    assertEquals(message, e.getMessage());
  }

  @Test
  void aMappingIsWrittenInLambdasOrderWithSluicesAdditionsLast() {
    EventSourceMapping m = new EventSourceMapping("u-1", 10, 0, "arn:aws:sqs:us-east-1:000000000000:q", List.of(),
        "http://h/x", 1_764_201_600_123L, "OK", "Enabled", "USER_INITIATED", false, 0,
        "arn:aws:lambda:us-east-1:000000000000:event-source-mapping:u-1",
        new EventSourceMapping.Target("http", 30, List.of("Authorization"), true, 0), null, 2, 1, 1000, "api");
    JsonObject json = MappingResponses.json(m);
    assertEquals(List.of("UUID", "BatchSize", "MaximumBatchingWindowInSeconds", "EventSourceArn", "FunctionArn",
        "LastModified", "LastProcessingResult", "State", "StateTransitionReason", "FunctionResponseTypes",
        "EventSourceMappingArn", "TargetConfig", "Concurrency", "Origin"), List.copyOf(json.fieldNames()));
    assertEquals("\"LastModified\":1764201600.123", json.encode().replaceAll(".*(\"LastModified\":[^,]*).*", "$1"),
        "epoch seconds with milliseconds, a JSON number, as Lambda writes them");
    assertEquals("<redacted>", json.getJsonObject("TargetConfig").getJsonObject("Headers").getString("Authorization"));
    assertNull(json.getJsonObject("TargetConfig").getValue("MaxConcurrentRequests"), "none of its own");
    assertEquals(new JsonObject().put("Pollers", 2).put("Invoking", 1).put("Maximum", 1000),
        json.getJsonObject("Concurrency"));
  }
}
