package dev.sluice.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sluice.testtools.NeedsTools;
import dev.sluice.testtools.NodePackages;
import dev.sluice.testtools.Tool;
import dev.sluice.testtools.Tools;
import io.vertx.core.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The example page, {@code /examples/subscribe.html}, in headless Chromium or Chrome (the one
 * {@link Tools#chromium} finds, driven by Playwright's {@code playwright-core} from npm): it
 * subscribes through the SockJS bridge and shows a message the AWS SDK sends, which it then
 * acknowledges, and shows a topic live: a message the SDK's {@code SnsClient} publishes.
 */
@NeedsTools({Tool.CHROMIUM, Tool.NODE, Tool.NPM})
@Isolated
class ExamplePageIT extends SharedServerIT {
  /** Opens {@code page} in the browser; once it has subscribed, {@code send} sends; answers the first row shown. */
  static JsonObject shownInBrowser(String page, java.util.function.Supplier<String> send) throws Exception {
    String chromium = Tools.chromium();
    Path dir = NodePackages.installed("example-page");
    Process node = new ProcessBuilder(Tools.node(), "show-message.js", chromium, server.endpoint + page)
        .directory(dir.toFile()).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("subscribed", out.readLine());
      String id = send.get();
      JsonObject shown = new JsonObject(out.readLine());
      assertEquals(id, shown.getJsonArray("row").getString(0));
      assertTrue(node.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, node.exitValue());
      return shown;
    } finally {
      node.destroyForcibly();
    }
  }

  @Test
  void theExamplePageShowsAMessageSentByTheAwsSdk() throws Exception {
    String url = queue("push-page", Map.of());
    JsonObject shown = shownInBrowser("/examples/subscribe.html?queue=push-page",
        () -> sqs.sendMessage(b -> b.queueUrl(url).messageBody("shown in the browser")).messageId());
    assertEquals("shown in the browser", shown.getJsonArray("row").getString(1));
    long end = System.currentTimeMillis() + 5000;
    while (!"0".equals(sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
        "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings().get("ApproximateNumberOfMessagesNotVisible"))) {
      assertTrue(System.currentTimeMillis() < end, "the page acknowledged the message");
      Thread.sleep(50);
    }
  }

  @Test
  void theExamplePageShowsATopicLive() throws Exception {
    try (SnsClient sns = SnsClient.builder().endpointOverride(server.endpoint).region(Region.US_EAST_1)
        .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "secret")))
        .httpClient(UrlConnectionHttpClient.builder().build()).build()) {
      String topic = sns.createTopic(r -> r.name("push-page-topic")).topicArn();
      JsonObject shown = shownInBrowser("/examples/subscribe.html?topic=push-page-topic",
          () -> sns.publish(r -> r.topicArn(topic).subject("Live").message("published to the browser")).messageId());
      assertEquals("published to the browser", shown.getJsonArray("row").getString(1));
      assertEquals("Live", shown.getJsonArray("row").getString(2));
      assertTrue(shown.getString("status").contains("topic push-page-topic"), shown.encode());
    }
  }
}
