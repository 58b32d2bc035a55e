package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;
import software.amazon.awssdk.services.sqs.model.SqsException;

/** Errors as real clients see them: modelled exceptions, legacy codes, never a 500. */
class ErrorsIT extends SharedServerIT {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void everyQueueActionOnAMissingQueueIsQueueDoesNotExist() {
    String url = server.queueUrl("missing");
    List<Consumer<SqsClient>> calls = List.of(
        c -> c.sendMessage(b -> b.queueUrl(url).messageBody("x")),
        c -> c.receiveMessage(b -> b.queueUrl(url)),
        c -> c.deleteMessage(b -> b.queueUrl(url).receiptHandle("h")),
        c -> c.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("All")),
        c -> c.purgeQueue(b -> b.queueUrl(url)),
        c -> c.deleteQueue(b -> b.queueUrl(url)),
        c -> c.listQueueTags(b -> b.queueUrl(url)));
    for (Consumer<SqsClient> call : calls) {
      QueueDoesNotExistException e = assertThrows(QueueDoesNotExistException.class, () -> call.accept(sqs));
      assertEquals("AWS.SimpleQueueService.NonExistentQueue", e.awsErrorDetails().errorCode());
    }
  }

  @Test
  void aQueueUrlOfAnotherAccountNamesNoQueueOfOurs() {
    sqs.createQueue(b -> b.queueName("owned"));
    assertThrows(QueueDoesNotExistException.class,
        () -> sqs.sendMessage(b -> b.queueUrl(server.endpoint + "/111122223333/owned").messageBody("x")));
    assertThrows(QueueDoesNotExistException.class,
        () -> sqs.getQueueUrl(b -> b.queueName("owned").queueOwnerAWSAccountId("111122223333")));
    assertEquals(server.queueUrl("owned"),
        sqs.getQueueUrl(b -> b.queueName("owned").queueOwnerAWSAccountId("000000000000")).queueUrl());
  }

  @Test
  void receiveParametersOutOfRangeGetSqsTexts() {
    String url = sqs.createQueue(b -> b.queueName("params")).queueUrl();
    SqsException max = assertThrows(SqsException.class,
        () -> sqs.receiveMessage(b -> b.queueUrl(url).maxNumberOfMessages(11)));
    assertEquals("InvalidParameterValue", max.awsErrorDetails().errorCode());
    assertEquals("Value 11 for parameter MaxNumberOfMessages is invalid. Reason: Must be between 1 and 10, if provided.",
        max.awsErrorDetails().errorMessage());
    for (int wait : new int[] {21, -1}) {
      SqsException e = assertThrows(SqsException.class, () -> sqs.receiveMessage(b -> b.queueUrl(url).waitTimeSeconds(wait)));
      assertEquals("Value " + wait + " for parameter WaitTimeSeconds is invalid. Reason: Must be >= 0 and <= 20, if provided.",
          e.awsErrorDetails().errorMessage());
    }
    assertEquals("InvalidParameterValue", assertThrows(SqsException.class,
        () -> sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(43_201))).awsErrorDetails().errorCode());
  }

  HttpResponse<String> post(String target, String body) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint + "/"))
        .header("Content-Type", "application/x-amz-json-1.0")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (target != null) {
      b.header("X-Amz-Target", target);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void malformedJsonIsA400SerializationException() throws Exception {
    HttpResponse<String> r = post("AmazonSQS.ListQueues", "{not json");
    assertEquals(400, r.statusCode());
    assertEquals("com.amazon.coral.service#SerializationException", new JsonObject(r.body()).getString("__type"));
    assertEquals(400, post("AmazonSQS.ListQueues", "[1,2]").statusCode());
  }

  @Test
  void aMemberOfTheWrongTypeIsASerializationException() throws Exception {
    HttpResponse<String> r = post("AmazonSQS.ReceiveMessage", "{\"QueueUrl\":\"q\",\"MaxNumberOfMessages\":\"10\"}");
    assertEquals(400, r.statusCode());
    JsonObject body = new JsonObject(r.body());
    assertEquals("com.amazon.coral.service#SerializationException", body.getString("__type"));
    assertTrue(body.getString("message").startsWith("STRING_VALUE can not be converted to an Integer"));
  }

  @Test
  void anUnknownActionIsUnsupportedOperationWithTheLegacyCodeHeader() throws Exception {
    HttpResponse<String> r = post("AmazonSQS.Frobnicate", "{}");
    assertEquals(400, r.statusCode());
    assertEquals("AWS.SimpleQueueService.UnsupportedOperation;Sender", r.headers().firstValue("x-amzn-query-error").orElseThrow());
    assertEquals("com.amazonaws.sqs#UnsupportedOperation", new JsonObject(r.body()).getString("__type"));
    assertTrue(r.headers().firstValue("x-amzn-RequestId").isPresent());
  }

  @Test
  void nonexistentQueueRendersExactlyAsAws() throws Exception {
    HttpResponse<String> r = post("AmazonSQS.GetQueueUrl", "{\"QueueName\":\"nope\"}");
    assertEquals(400, r.statusCode());
    assertEquals("AWS.SimpleQueueService.NonExistentQueue;Sender", r.headers().firstValue("x-amzn-query-error").orElseThrow());
    assertEquals(new JsonObject().put("__type", "com.amazonaws.sqs#QueueDoesNotExist")
        .put("message", "The specified queue does not exist."), new JsonObject(r.body()));
    assertEquals("application/x-amz-json-1.0", r.headers().firstValue("Content-Type").orElseThrow());
  }

  @Test
  void emptyResultsOmitTheirMembers() throws Exception {
    String url = sqs.createQueue(b -> b.queueName("omitted")).queueUrl();
    assertEquals("{}", post("AmazonSQS.ReceiveMessage", "{\"QueueUrl\":\"" + url + "\"}").body());
    assertEquals("{}", post("AmazonSQS.ListQueueTags", "{\"QueueUrl\":\"" + url + "\"}").body());
    assertEquals("{}", post("AmazonSQS.ListQueues", "{\"QueueNamePrefix\":\"zzz\"}").body());
  }

  @Test
  void anUnknownQueryActionGetsAnErrorNotA500() throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + "/?Action=ListQueuez")).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(400, r.statusCode());
    assertTrue(r.body().contains("<Code>InvalidAction</Code>"), r.body());
  }
}
