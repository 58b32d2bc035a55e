package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.Browser;
import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.Tool;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.MessageAttributeValue;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueDoesNotExistException;

/**
 * The console in headless Chromium against a real server, checked from outside through the AWS
 * SDK: what the pages show is what the queues hold, what the pages do is what the API then reports,
 * and browsing changes nothing. The browser fails a test on any page error, console error or
 * Content-Security-Policy violation ({@link Browser}). The last test takes the README's screenshots.
 */
@NeedsTools({Tool.CHROMIUM, Tool.NODE, Tool.NPM})
class ConsoleIT {
  static final String ACCOUNT = "000000000000";
  static final String REGION = "us-east-1";
  /** Where the screenshots go: target/ unless a refresh of the README's asks for src/site/resources. */
  static final Path SCREENSHOTS = Path.of(System.getProperty("sluice.console.screenshots", "target/console-screenshots"));
  static TestServer server;
  static SqsClient sqs;
  static Browser browser;

  @BeforeAll
  static void start() throws Exception {
    server = TestServer.start(Map.of("SLUICE_CONSOLE_SAMPLE_MILLIS", "1000"));
    sqs = server.clientWithoutRetries();
    browser = Browser.start();
  }

  @AfterAll
  static void stop() throws Exception {
    if (browser != null) {
      browser.close();
    }
    sqs.close();
    server.close();
  }

  /** Loads the page afresh (a change of the fragment alone keeps the page's state, such as a filter). */
  static void open(String hash) {
    browser.goTo("about:blank");
    browser.goTo(server.endpoint + "/console/#" + hash);
  }

  static String queuePage(String name, String tab) {
    return "/q/" + ACCOUNT + "/" + REGION + "/" + name + "/" + tab;
  }

  static String row(String name) {
    return "table#queues tr[data-queue=\"" + ACCOUNT + "/" + REGION + "/" + name + "\"]";
  }

  static String create(String name, Map<String, String> attributes) {
    return sqs.createQueue(b -> b.queueName(name).attributesWithStrings(attributes)).queueUrl();
  }

  static String arn(String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNames(QueueAttributeName.QUEUE_ARN)).attributes()
        .get(QueueAttributeName.QUEUE_ARN);
  }

  static Map<String, String> counts(String url) {
    return sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings("ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed")).attributesAsStrings();
  }

  static void eventually(Supplier<Boolean> condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!condition.get()) {
      assertTrue(System.nanoTime() < deadline, what);
      Thread.sleep(100);
    }
  }

  @Test
  void theOverviewShowsQueuesWithTheirCounts() throws Exception {
    String dlq = create("ov-orders-dlq", Map.of());
    String orders = create("ov-orders", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":\"5\"}"));
    create("ov-events.fifo", Map.of("FifoQueue", "true"));
    for (int i = 0; i < 3; i++) {
      int n = i;
      sqs.sendMessage(b -> b.queueUrl(orders).messageBody("order " + n));
    }
    sqs.sendMessage(b -> b.queueUrl(orders).messageBody("later").delaySeconds(600));
    assertEquals(1, sqs.receiveMessage(b -> b.queueUrl(orders).visibilityTimeout(600)).messages().size());

    open("/");
    browser.waitForText(row("ov-orders") + " td[data-label=\"Visible\"]", "2");
    assertEquals("1", browser.text(row("ov-orders") + " td[data-label=\"In flight\"]").strip());
    assertEquals("1", browser.text(row("ov-orders") + " td[data-label=\"Delayed\"]").strip());
    assertTrue(browser.text(row("ov-orders-dlq") + " .dlq-of").contains("DLQ of ov-orders"));
    assertTrue(browser.text(row("ov-events.fifo") + " td[data-label=\"Type\"]").contains("FIFO"));

    // The keyboard alone: "/" goes to the filter, and only the matching queue is left.
    browser.press("body", "/");
    assertEquals("filter", browser.focused());
    browser.fill("#filter", "ov-events");
    browser.waitForHidden(row("ov-orders"));
    browser.waitFor(row("ov-events.fifo"));
  }

  @Test
  void aMessageSentFromTheConsoleIsReceivedByTheSdk() throws Exception {
    String url = create("sent-from-console", Map.of());
    open(queuePage("sent-from-console", "send"));
    browser.fill("#send-body", "typed in a browser ✓");
    browser.click("#send-add-attribute");
    browser.fill("[aria-label=\"Attribute name 1\"]", "colour");
    browser.select("[aria-label=\"Attribute type 1\"]", "String");
    browser.fill("[aria-label=\"Attribute value 1\"]", "blue");
    browser.click("#send-add-attribute");
    browser.fill("[aria-label=\"Attribute name 2\"]", "weight");
    browser.select("[aria-label=\"Attribute type 2\"]", "Number");
    browser.fill("[aria-label=\"Attribute value 2\"]", "12.5");
    browser.click("#send-submit");
    browser.waitFor("#send-result[data-message-id]");
    String id = browser.attribute("#send-result", "data-message-id");

    // The SDK checks both MD5 digests itself: a mismatch would throw here.
    List<Message> got = sqs.receiveMessage(b -> b.queueUrl(url).messageAttributeNames("All").waitTimeSeconds(5))
        .messages();
    assertEquals(1, got.size());
    assertEquals(id, got.get(0).messageId());
    assertEquals("typed in a browser ✓", got.get(0).body());
    assertEquals(MessageAttributeValue.builder().dataType("String").stringValue("blue").build(),
        got.get(0).messageAttributes().get("colour"));
    assertEquals(MessageAttributeValue.builder().dataType("Number").stringValue("12.5").build(),
        got.get(0).messageAttributes().get("weight"));

    String fifo = create("sent-from-console.fifo", Map.of("FifoQueue", "true"));
    open(queuePage("sent-from-console.fifo", "send"));
    browser.fill("#send-body", "in a group");
    browser.fill("#send-group", "g1");
    browser.fill("#send-dedup", "d1");
    browser.click("#send-submit");
    browser.waitFor("#send-result[data-message-id]");
    Message m = sqs.receiveMessage(b -> b.queueUrl(fifo).messageSystemAttributeNamesWithStrings("All")
        .waitTimeSeconds(5)).messages().get(0);
    assertEquals("in a group", m.body());
    assertEquals("g1", m.attributes().get(MessageSystemAttributeName.MESSAGE_GROUP_ID));
    assertEquals("d1", m.attributes().get(MessageSystemAttributeName.MESSAGE_DEDUPLICATION_ID));
  }

  @Test
  void browsingChangesNothing() throws Exception {
    String url = create("browsed", Map.of());
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("first"));
    sqs.sendMessage(b -> b.queueUrl(url).messageBody("second"));
    Message taken = sqs.receiveMessage(b -> b.queueUrl(url).visibilityTimeout(60)).messages().get(0);

    open(queuePage("browsed", "messages"));
    browser.waitFor("table#peek tr[data-message-id=\"" + taken.messageId() + "\"][data-state=\"IN_FLIGHT\"]");
    assertEquals(2, browser.count("table#peek tr[data-message-id]"));
    assertEquals("1", browser.text("table#peek tr[data-message-id=\"" + taken.messageId()
        + "\"] td[data-label=\"Receives\"]").strip());
    browser.click("#peek-refresh");
    browser.waitFor("table#peek tr[data-message-id=\"" + taken.messageId() + "\"]");

    assertEquals(Map.of("ApproximateNumberOfMessages", "1", "ApproximateNumberOfMessagesNotVisible", "1",
        "ApproximateNumberOfMessagesDelayed", "0"), counts(url));
    Message other = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNamesWithStrings(
        "ApproximateReceiveCount")).messages().get(0);
    assertFalse(other.messageId().equals(taken.messageId()));
    assertEquals("1", other.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
    sqs.changeMessageVisibility(b -> b.queueUrl(url).receiptHandle(taken.receiptHandle()).visibilityTimeout(0));
    Message again = sqs.receiveMessage(b -> b.queueUrl(url).messageSystemAttributeNamesWithStrings(
        "ApproximateReceiveCount")).messages().get(0);
    assertEquals(taken.messageId(), again.messageId());
    assertEquals("2", again.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT));
  }

  @Test
  void purgeAndDeleteAskFirst() throws Exception {
    String url = create("doomed", Map.of());
    for (int i = 0; i < 3; i++) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("doomed"));
    }
    open(queuePage("doomed", "danger"));
    browser.click("#purge-open");
    browser.waitFor("dialog#confirm-dialog");
    browser.fill("#confirm-input", "not the name");
    assertEquals("", browser.attribute("#confirm-button", "disabled"), "the button waits for the queue's name");
    browser.click("#confirm-cancel");
    browser.waitForHidden("dialog#confirm-dialog");
    assertEquals("3", counts(url).get("ApproximateNumberOfMessages"));

    browser.click("#purge-open");
    browser.fill("#confirm-input", "doomed");
    browser.click("#confirm-button");
    browser.waitFor("#danger-result");
    eventually(() -> counts(url).get("ApproximateNumberOfMessages").equals("0"), "the purge emptied the queue");

    browser.click("#delete-open");
    browser.fill("#confirm-input", "doomed");
    browser.click("#confirm-button");
    browser.waitFor("table#queues");
    assertThrows(QueueDoesNotExistException.class, () -> sqs.getQueueUrl(b -> b.queueName("doomed")));
  }

  @Test
  void aRedriveFromTheConsoleMovesTheMessagesBack() throws Exception {
    String dlq = create("redriven-dlq", Map.of());
    String source = create("redriven", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":\"1\"}"));
    for (int i = 0; i < 3; i++) {
      int n = i;
      sqs.sendMessage(b -> b.queueUrl(source).messageBody("failing " + n));
    }
    // Received once each and let go at once: the next receive moves them to the dead-letter queue.
    eventually(() -> {
      sqs.receiveMessage(b -> b.queueUrl(source).maxNumberOfMessages(10).visibilityTimeout(0));
      return counts(dlq).get("ApproximateNumberOfMessages").equals("3");
    }, "three messages reach the dead-letter queue");

    open(queuePage("redriven-dlq", "messages"));
    browser.waitFor("table#peek tr[data-message-id]");
    assertEquals(3, browser.count("table#peek tr[data-message-id]"));
    assertEquals(3, browser.count("table#peek td[data-label=\"From\"]:text-is(\"redriven\")"));
    browser.click("#tab-deadletters");
    browser.waitFor("ul#dlq-sources li:has-text(\"redriven\")");
    browser.click("#redrive-start");
    browser.waitFor("table#move-tasks tr[data-status=\"COMPLETED\"]");
    eventually(() -> counts(source).get("ApproximateNumberOfMessages").equals("3"), "the messages are back");
    assertEquals("0", counts(dlq).get("ApproximateNumberOfMessages"));
  }

  @Test
  void theBackoffTabSetsAndRemovesTheQueuesRedeliveryBackoff() throws Exception {
    create("backed-off", Map.of());
    String path = "/console/api/queues/" + ACCOUNT + "/" + REGION + "/backed-off/redelivery-backoff";
    open(queuePage("backed-off", "backoff"));
    eventually(() -> browser.text("#backoff-current").startsWith("None"), "no backoff at first");
    browser.fill("#backoff-base", "5");
    browser.fill("#backoff-max", "4");
    browser.click("#backoff-save");
    eventually(() -> browser.text("#backoff-error").contains("Max must be"), "a max below the base is refused");
    browser.fill("#backoff-max", "300");
    browser.click("#backoff-save");
    eventually(() -> browser.text("#backoff-current").contains("0–5 s, 0–10 s"), "the saved policy is shown");
    assertEquals("{\"baseSeconds\":5,\"maxSeconds\":300}",
        ConsoleHttp.get(server.sluice.port(), path, ConsoleHttp.CONSOLE).body());
    open(queuePage("backed-off", "backoff")); // read back from the server
    eventually(() -> "300".equals(browser.attribute("#backoff-current", "data-max")), "the policy is read back");
    browser.click("#backoff-remove");
    eventually(() -> browser.text("#backoff-current").startsWith("None"), "the policy is removed");
    assertEquals("{\"baseSeconds\":null,\"maxSeconds\":null}",
        ConsoleHttp.get(server.sluice.port(), path, ConsoleHttp.CONSOLE).body());
  }

  @Test
  void theChartFollowsArrivals() throws Exception {
    String url = create("charted", Map.of());
    open(queuePage("charted", "messages"));
    browser.waitFor("figure#chart-depth[data-last-depth=\"0\"]");
    for (int i = 0; i < 5; i++) {
      sqs.sendMessage(b -> b.queueUrl(url).messageBody("point"));
    }
    browser.waitFor("figure#chart-depth[data-last-depth=\"5\"]");
    assertTrue(browser.text("#depth-summary").contains("5"), browser.text("#depth-summary"));
  }

  @Test
  void theTokenIsAskedForWhereTheServerRequiresIt() throws Exception {
    try (TestServer guarded = TestServer.start(Map.of("SLUICE_MANAGEMENT_TOKEN", "s3cret-console"))) {
      HttpClient http = HttpClient.newHttpClient();
      URI status = URI.create(guarded.endpoint + "/console/api/status");
      assertEquals(401, http.send(HttpRequest.newBuilder(status).header("X-Sluice-Console", "1").build(),
          HttpResponse.BodyHandlers.discarding()).statusCode());
      assertEquals(401, http.send(HttpRequest.newBuilder(status).header("X-Sluice-Console", "1")
          .header("Authorization", "Bearer wrong").build(), HttpResponse.BodyHandlers.discarding()).statusCode());

      // A token in the fragment is taken, and removed from the address.
      browser.goTo(guarded.endpoint + "/console/#token=s3cret-console");
      browser.waitFor("table#queues");
      assertFalse(browser.url().contains("s3cret"), browser.url());

      // Another origin (localhost instead of 127.0.0.1) has no token stored: the page asks for it.
      browser.expectProblems("401");
      try {
        browser.goTo("http://localhost:" + guarded.endpoint.getPort() + "/console/");
        browser.waitFor("dialog#token-dialog");
        browser.fill("#token-input", "wrong");
        browser.click("#token-submit");
        browser.waitFor("#token-error");
        browser.fill("#token-input", "s3cret-console");
        browser.click("#token-submit");
        browser.waitFor("table#queues");
      } finally {
        browser.expectNoProblems();
      }
    }
  }

  @Test
  void screenshotsForTheReadme() throws Exception {
    String dlq = create("payments-dlq", Map.of());
    String payments = create("payments", Map.of("RedrivePolicy",
        "{\"deadLetterTargetArn\":\"" + arn(dlq) + "\",\"maxReceiveCount\":\"3\"}"));
    String orders = create("orders", Map.of());
    create("invoices.fifo", Map.of("FifoQueue", "true"));
    for (int i = 0; i < 40; i++) {
      int n = i;
      String to = i % 4 == 0 ? payments : orders;
      sqs.sendMessage(b -> b.queueUrl(to)
          .messageBody("{\"order\": " + (1000 + n) + ", \"amount\": " + (n * 7 % 90 + 10) + "}"));
      if (i % 8 == 0) {
        sqs.receiveMessage(b -> b.queueUrl(orders).visibilityTimeout(600));
      }
    }
    Files.createDirectories(SCREENSHOTS);
    browser.viewport(1280, 800);
    browser.colorScheme("light");
    open("/");
    browser.waitForText(row("orders") + " td[data-label=\"Visible\"]", counts(orders).get("ApproximateNumberOfMessages"));
    browser.screenshot(SCREENSHOTS.resolve("overview.png"));

    browser.colorScheme("dark");
    open(queuePage("orders", "messages"));
    browser.waitFor("table#peek tr[data-message-id]");
    browser.waitFor("figure#chart-depth[data-last-depth]");
    browser.screenshot(SCREENSHOTS.resolve("queue.png"));

    browser.colorScheme("light");
    browser.viewport(390, 844);
    open("/");
    browser.waitFor(row("orders"));
    int[] widths = browser.widths();
    assertTrue(widths[0] <= widths[1], "nothing scrolls sideways on a phone: " + widths[0] + " > " + widths[1]);
    browser.screenshot(SCREENSHOTS.resolve("phone.png"));
    browser.viewport(1280, 800);
  }
}
