package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.auth.AWSStaticCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.client.builder.AwsClientBuilder.EndpointConfiguration;
import com.amazonaws.services.sqs.AmazonSQS;
import com.amazonaws.services.sqs.AmazonSQSClientBuilder;
import com.amazonaws.services.sqs.model.AmazonSQSException;
import com.amazonaws.services.sqs.model.BatchResultErrorEntry;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import com.amazonaws.services.sqs.model.ChangeMessageVisibilityBatchResult;
import com.amazonaws.services.sqs.model.CreateQueueRequest;
import com.amazonaws.services.sqs.model.DeleteMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.DeleteMessageBatchResult;
import com.amazonaws.services.sqs.model.ListDeadLetterSourceQueuesRequest;
import com.amazonaws.services.sqs.model.ListMessageMoveTasksRequest;
import com.amazonaws.services.sqs.model.Message;
import com.amazonaws.services.sqs.model.MessageAttributeValue;
import com.amazonaws.services.sqs.model.QueueDoesNotExistException;
import com.amazonaws.services.sqs.model.ReceiveMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageBatchRequestEntry;
import com.amazonaws.services.sqs.model.SendMessageBatchResult;
import com.amazonaws.services.sqs.model.SendMessageRequest;
import com.amazonaws.services.sqs.model.SendMessageResult;
import com.amazonaws.services.sqs.model.StartMessageMoveTaskRequest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Query protocol through a real Query-era client, the AWS SDK for Java v1 1.12.583 (it checks
 * the MD5s of bodies and attributes), plus the rules of the SQS Query API guide over raw HTTP.
 */
class QueryProtocolIT {
  static TestServer server;
  static AmazonSQS sqs;
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @BeforeAll
  static void start() {
    server = TestServer.start();
    sqs = v1Client(server.endpoint.toString(), "AKIDTEST", "secret");
  }

  @AfterAll
  static void stop() throws Exception {
    sqs.shutdown();
    server.close();
  }

  static AmazonSQS v1Client(String endpoint, String keyId, String secret) {
    return AmazonSQSClientBuilder.standard()
        .withEndpointConfiguration(new EndpointConfiguration(endpoint, "us-east-1"))
        .withCredentials(new AWSStaticCredentialsProvider(new BasicAWSCredentials(keyId, secret)))
        .build();
  }

  static HttpResponse<String> get(String pathAndQuery) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + pathAndQuery)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void queuesAttributesAndTags() {
    String url = sqs.createQueue(new CreateQueueRequest("query-basic").withAttributes(Map.of("VisibilityTimeout", "40"))
        .withTags(Map.of("team", "payments"))).getQueueUrl();
    assertEquals(url, sqs.getQueueUrl("query-basic").getQueueUrl());
    assertTrue(sqs.listQueues("query-").getQueueUrls().contains(url));
    assertEquals("40", sqs.getQueueAttributes(url, List.of("All")).getAttributes().get("VisibilityTimeout"));
    sqs.setQueueAttributes(url, Map.of("DelaySeconds", "2"));
    assertEquals("2", sqs.getQueueAttributes(url, List.of("DelaySeconds")).getAttributes().get("DelaySeconds"));
    sqs.tagQueue(url, Map.of("tier", "gold"));
    assertEquals(Map.of("team", "payments", "tier", "gold"), sqs.listQueueTags(url).getTags());
    sqs.untagQueue(url, List.of("team"));
    assertEquals(Map.of("tier", "gold"), sqs.listQueueTags(url).getTags());
    sqs.deleteQueue(url);
    assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl("query-basic"));
  }

  @Test
  void sendReceiveChangeVisibilityAndDeleteWithAttributes() {
    String url = sqs.createQueue("query-messages").getQueueUrl();
    SendMessageResult sent = sqs.sendMessage(new SendMessageRequest(url, "héllo \"query\"\r\n<&>")
        .withMessageAttributes(Map.of(
            "kind", new MessageAttributeValue().withDataType("String").withStringValue("greeting"),
            "blob", new MessageAttributeValue().withDataType("Binary")
                .withBinaryValue(ByteBuffer.wrap(new byte[] {1, 2, 3})))));
    assertNotNull(sent.getMD5OfMessageAttributes());
    List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(url).withAttributeNames("All")
        .withMessageAttributeNames("All").withMaxNumberOfMessages(10)).getMessages();
    assertEquals(1, got.size());
    Message m = got.get(0);
    assertEquals(sent.getMessageId(), m.getMessageId());
    assertEquals("héllo \"query\"\r\n<&>", m.getBody(), "the body round-trips through XML escaping");
    assertEquals("1", m.getAttributes().get("ApproximateReceiveCount"));
    assertEquals("greeting", m.getMessageAttributes().get("kind").getStringValue());
    assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), m.getMessageAttributes().get("blob").getBinaryValue());
    sqs.changeMessageVisibility(url, m.getReceiptHandle(), 0);
    Message again = sqs.receiveMessage(new ReceiveMessageRequest(url).withAttributeNames("All")).getMessages().get(0);
    assertEquals("2", again.getAttributes().get("ApproximateReceiveCount"), "visible again at once");
    sqs.deleteMessage(url, again.getReceiptHandle());
    assertEquals(0, sqs.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(0)).getMessages().size());
  }

  @Test
  void batchesReportEachEntryIncludingFailures() {
    String url = sqs.createQueue("query-batch").getQueueUrl();
    List<SendMessageBatchRequestEntry> entries = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      entries.add(new SendMessageBatchRequestEntry("e" + i, "m" + i));
    }
    entries.add(new SendMessageBatchRequestEntry("nul", "not \u0000 allowed"));
    SendMessageBatchResult sent = sqs.sendMessageBatch(url, entries);
    assertEquals(3, sent.getSuccessful().size(), "the SDK checked each entry's MD5");
    assertEquals("nul", sent.getFailed().get(0).getId());
    assertEquals("InvalidMessageContents", sent.getFailed().get(0).getCode());
    List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages();
    assertEquals(3, got.size());
    ChangeMessageVisibilityBatchResult changed = sqs.changeMessageVisibilityBatch(url, List.of(
        new ChangeMessageVisibilityBatchRequestEntry("c0", got.get(0).getReceiptHandle()).withVisibilityTimeout(60),
        new ChangeMessageVisibilityBatchRequestEntry("garbage", "not-a-receipt-handle").withVisibilityTimeout(60)));
    assertEquals("c0", changed.getSuccessful().get(0).getId());
    assertEquals("ReceiptHandleIsInvalid", changed.getFailed().get(0).getCode());
    List<DeleteMessageBatchRequestEntry> deletes = new ArrayList<>();
    for (int i = 0; i < got.size(); i++) {
      deletes.add(new DeleteMessageBatchRequestEntry("d" + i, got.get(i).getReceiptHandle()));
    }
    deletes.add(new DeleteMessageBatchRequestEntry("bad", "not-a-receipt-handle"));
    DeleteMessageBatchResult result = sqs.deleteMessageBatch(url, deletes);
    assertEquals(got.size(), result.getSuccessful().size());
    BatchResultErrorEntry failed = result.getFailed().get(0);
    assertEquals("bad", failed.getId());
    assertEquals("ReceiptHandleIsInvalid", failed.getCode());
    assertTrue(failed.getSenderFault());
  }

  @Test
  void fifoOrderDeduplicationAndSequenceNumbers() {
    String url = sqs.createQueue(new CreateQueueRequest("query-orders.fifo")
        .withAttributes(Map.of("FifoQueue", "true"))).getQueueUrl();
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      SendMessageResult r = sqs.sendMessage(new SendMessageRequest(url, "step " + i).withMessageGroupId("g")
          .withMessageDeduplicationId("d" + i));
      assertNotNull(r.getSequenceNumber());
      ids.add(r.getMessageId());
    }
    assertEquals(ids.get(0), sqs.sendMessage(new SendMessageRequest(url, "step 0").withMessageGroupId("g")
        .withMessageDeduplicationId("d0")).getMessageId(), "a duplicate gets the original's id");
    List<Message> got = sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(10)).getMessages();
    assertEquals(List.of("step 0", "step 1", "step 2"), got.stream().map(Message::getBody).toList());
  }

  @Test
  void deadLetterQueueAfterMaxReceiveCount() {
    String dlq = sqs.createQueue("query-dlq").getQueueUrl();
    String arn = sqs.getQueueAttributes(dlq, List.of("QueueArn")).getAttributes().get("QueueArn");
    String url = sqs.createQueue(new CreateQueueRequest("query-source").withAttributes(Map.of(
        "RedrivePolicy", "{\"deadLetterTargetArn\":\"" + arn + "\",\"maxReceiveCount\":\"1\"}"))).getQueueUrl();
    sqs.sendMessage(url, "poison");
    assertEquals(1, sqs.receiveMessage(new ReceiveMessageRequest(url).withVisibilityTimeout(0)).getMessages().size());
    assertEquals(0, sqs.receiveMessage(url).getMessages().size(), "moved on its second receive");
    assertEquals("poison", sqs.receiveMessage(new ReceiveMessageRequest(dlq).withVisibilityTimeout(0))
        .getMessages().get(0).getBody());
    assertEquals(List.of(url), sqs.listDeadLetterSourceQueues(new ListDeadLetterSourceQueuesRequest(dlq)).getQueueUrls());

    String task = sqs.startMessageMoveTask(new StartMessageMoveTaskRequest().withSourceArn(arn)).getTaskHandle();
    assertNotNull(task);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    String status;
    do {
      status = sqs.listMessageMoveTasks(new ListMessageMoveTasksRequest().withSourceArn(arn)).getResults().get(0)
          .getStatus();
    } while (!status.equals("COMPLETED") && System.nanoTime() < deadline);
    assertEquals("COMPLETED", status);
    assertEquals("poison", sqs.receiveMessage(url).getMessages().get(0).getBody(), "redriven to its source");
  }

  @Test
  void permissionsAreWrittenToThePolicy() {
    String url = sqs.createQueue("query-permissions").getQueueUrl();
    sqs.addPermission(url, "share", List.of("111122223333"), List.of("SendMessage", "ReceiveMessage"));
    String policy = sqs.getQueueAttributes(url, List.of("Policy")).getAttributes().get("Policy");
    assertTrue(policy.contains("\"Sid\":\"share\"") && policy.contains("arn:aws:iam::111122223333:root"), policy);
    sqs.removePermission(url, "share");
    assertEquals(null, sqs.getQueueAttributes(url, List.of("Policy")).getAttributes().get("Policy"));
    AmazonSQSException unknown = assertThrows(AmazonSQSException.class, () -> sqs.removePermission(url, "share"));
    assertEquals("InvalidParameterValue", unknown.getErrorCode());
  }

  @Test
  void purgeAndALongPollWokenByASend() throws Exception {
    String url = sqs.createQueue("query-poll").getQueueUrl();
    sqs.sendMessage(url, "old");
    sqs.purgeQueue(new com.amazonaws.services.sqs.model.PurgeQueueRequest(url));
    CompletableFuture<List<Message>> poll = CompletableFuture.supplyAsync(
        () -> sqs.receiveMessage(new ReceiveMessageRequest(url).withWaitTimeSeconds(10)).getMessages());
    Thread.sleep(300);
    sqs.sendMessage(url, "new");
    assertEquals("new", poll.get().get(0).getBody());
  }

  @Test
  void errorsCarryTheQueryCodes() {
    QueueDoesNotExistException missing = assertThrows(QueueDoesNotExistException.class,
        () -> sqs.getQueueAttributes(server.endpoint + "/000000000000/query-nowhere", List.of("All")));
    assertEquals("AWS.SimpleQueueService.NonExistentQueue", missing.getErrorCode());
    assertEquals(400, missing.getStatusCode());
    String url = sqs.createQueue("query-errors").getQueueUrl();
    AmazonSQSException bad = assertThrows(AmazonSQSException.class,
        () -> sqs.receiveMessage(new ReceiveMessageRequest(url).withMaxNumberOfMessages(11)));
    assertEquals("InvalidParameterValue", bad.getErrorCode());
    assertEquals(400, bad.getStatusCode());
  }

  @Test
  void aGetWithAQueryStringIsARequestAnsweredInXml() throws Exception {
    sqs.createQueue("query-raw-get");
    HttpResponse<String> list = get("/?Action=ListQueues&QueueNamePrefix=query-raw-get&Version=2012-11-05");
    assertEquals(200, list.statusCode());
    String requestId = list.headers().firstValue("x-amzn-RequestId").orElseThrow();
    assertEquals("<?xml version=\"1.0\"?><ListQueuesResponse xmlns=\"http://queue.amazonaws.com/doc/2012-11-05/\">"
        + "<ListQueuesResult><QueueUrl>" + server.endpoint + "/000000000000/query-raw-get</QueueUrl></ListQueuesResult>"
        + "<ResponseMetadata><RequestId>" + requestId + "</RequestId></ResponseMetadata></ListQueuesResponse>",
        list.body(), "the request id of the header is the body's");
    assertEquals("text/xml", list.headers().firstValue("content-type").orElse(""));
    HttpResponse<String> empty = get("/000000000000/query-raw-get?Action=ReceiveMessage");
    assertTrue(empty.body().contains("<ReceiveMessageResult/>"), empty.body());
  }

  @Test
  void aFormPostDecodesItsBody() throws Exception {
    sqs.createQueue("query-raw-form");
    HttpResponse<String> form = post("/", "Action=SendMessage&QueueUrl="
        + URLEncoder.encode(server.endpoint + "/000000000000/query-raw-form", StandardCharsets.UTF_8)
        + "&MessageBody=a%2Bb+c%0D%0A");
    assertEquals(200, form.statusCode(), form.body());
    assertEquals("a+b c\r\n",
        sqs.receiveMessage(server.endpoint + "/000000000000/query-raw-form").getMessages().get(0).getBody());
  }

  @Test
  void theQueuePathNamesTheQueueUnlessQueueUrlNamesAnother() throws Exception {
    sqs.createQueue("query-raw-path");
    String other = sqs.createQueue("query-raw-other").getQueueUrl();
    HttpResponse<String> atPath = get("/000000000000/query-raw-path?Action=GetQueueAttributes&AttributeName.1=QueueArn");
    assertTrue(atPath.body().contains("<Name>QueueArn</Name><Value>arn:aws:sqs:us-east-1:000000000000:query-raw-path"
        + "</Value>"), "the path names the queue: " + atPath.body());
    HttpResponse<String> overridden = get("/000000000000/query-raw-path?Action=GetQueueAttributes"
        + "&AttributeName.1=QueueArn&QueueUrl=" + URLEncoder.encode(other, StandardCharsets.UTF_8));
    assertTrue(overridden.body().contains("<Value>arn:aws:sqs:us-east-1:000000000000:query-raw-other</Value>"),
        "an explicit QueueUrl wins: " + overridden.body());
    HttpResponse<String> url = get("/000000000000/query-raw-path?Action=GetQueueUrl&QueueName=query-raw-other");
    assertTrue(url.body().contains("<QueueUrl>" + other + "</QueueUrl>"), "GetQueueUrl at any queue path: " + url.body());
  }

  @Test
  void actionsThatNameNoQueueAreInvalidAtAQueuePath() throws Exception {
    sqs.createQueue("query-raw-misplaced");
    for (String action : List.of("CreateQueue&QueueName=x", "ListQueues")) {
      HttpResponse<String> misplaced = post("/000000000000/query-raw-misplaced", "Action=" + action);
      assertEquals(400, misplaced.statusCode());
      String name = action.split("&")[0];
      assertTrue(misplaced.body().contains("<Type>Sender</Type><Code>InvalidAction</Code><Message>The action " + name
          + " is not valid for this endpoint.</Message>"), misplaced.body());
    }
  }

  @Test
  void anUnknownActionIsAnInvalidAction() throws Exception {
    HttpResponse<String> unknown = post("/", "Action=SendMessages&Version=2012-11-05");
    assertEquals(400, unknown.statusCode());
    assertTrue(unknown.body().contains("<Error><Type>Sender</Type><Code>InvalidAction</Code><Message>The action "
        + "SendMessages is not valid for this endpoint.</Message><Detail/></Error>"), unknown.body());
  }

  @Test
  void aPlainGetOfAQueueUrlIsAnUnknownOperation() throws Exception {
    sqs.createQueue("query-raw-plain");
    HttpResponse<String> plain = HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + "/000000000000/query-raw-plain"))
        .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(404, plain.statusCode());
    assertEquals("<UnknownOperationException/>", plain.body());
  }

  @Test
  void aMissingOrMalformedParameterIsRefusedWithItsQueryCode() throws Exception {
    sqs.createQueue("query-raw-params");
    HttpResponse<String> noBody = post("/000000000000/query-raw-params", "Action=SendMessage");
    assertEquals(400, noBody.statusCode());
    assertTrue(noBody.body().contains("<Code>MissingParameter</Code><Message>The request must contain the parameter "
        + "MessageBody.</Message>"), noBody.body());
    HttpResponse<String> notANumber = post("/000000000000/query-raw-params", "Action=ReceiveMessage&WaitTimeSeconds=x");
    assertEquals(400, notANumber.statusCode());
    assertTrue(notANumber.body().contains("<Code>InvalidParameterValue</Code>"), notANumber.body());
  }

  @Test
  void aParkedReceiveWhoseConnectionClosedTakesNoMessage() throws Exception {
    String url = sqs.createQueue("query-abandoned").getQueueUrl();
    String body = "Action=ReceiveMessage&WaitTimeSeconds=20";
    server.parkAndHangUp("POST /000000000000/query-abandoned HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Content-Type: application/x-www-form-urlencoded\r\n", body);
    sqs.sendMessage(url, "for a live consumer");
    assertEquals(1, sqs.receiveMessage(url).getMessages().size(),
        "the closed connection's receive was dropped, not handed the message");
  }

  @Test
  void queryRequestsAreTimedByActionAndOutcome() throws Exception {
    try (TestServer own = TestServer.start()) {
      AmazonSQS client = v1Client(own.endpoint.toString(), "AKIDTEST", "secret");
      client.createQueue("query-timed");
      assertThrows(QueueDoesNotExistException.class, () -> client.getQueueUrl("query-untimed"));
      HTTP.send(HttpRequest.newBuilder(URI.create(own.endpoint + "/?Action=Frobnicate")).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      client.shutdown();
      String text = MetricsIT.scrape(own);
      assertEquals(1.0, MetricsIT.value(text, "sluice_requests_seconds_count{action=\"CreateQueue\",error=\"none\"}"));
      assertEquals(1.0, MetricsIT.value(text, "sluice_requests_seconds_count{action=\"GetQueueUrl\","
          + "error=\"AWS.SimpleQueueService.NonExistentQueue\"}"));
      assertEquals(1.0, MetricsIT.value(text, "sluice_requests_seconds_count{action=\"Unknown\",error=\"InvalidAction\"}"),
          "an action name the server does not know is never a tag value");
    }
  }

  static HttpResponse<String> post(String path, String form) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(server.endpoint + path))
        .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
