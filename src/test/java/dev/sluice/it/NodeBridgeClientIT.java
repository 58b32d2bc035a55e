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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The published JavaScript client, {@code @vertx/eventbus-bridge-client.js} from npm, run by Node:
 * it subscribes through the SockJS bridge, gets a message an AWS SDK client sent, and acknowledges
 * it. The client is installed with npm into {@code target/} from the committed lock file.
 */
@NeedsTools({Tool.NODE, Tool.NPM})
class NodeBridgeClientIT extends SharedServerIT {
  @Test
  void thePublishedJavaScriptClientSubscribesReceivesAndAcks() throws Exception {
    Path dir = NodePackages.installed("push-client");

    String url = queue("push-node", java.util.Map.of());
    Process node = new ProcessBuilder(Tools.node(), "subscribe-and-ack.js", server.endpoint.toString(), "push-node")
        .directory(dir.toFile()).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8))) {
      assertEquals("subscribed", out.readLine());
      String id = sqs.sendMessage(b -> b.queueUrl(url).messageBody("from the AWS SDK to Node")).messageId();
      JsonObject got = new JsonObject(out.readLine());
      assertTrue(node.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, node.exitValue());
      assertEquals(id, got.getString("messageId"));
      assertEquals("from the AWS SDK to Node", got.getString("body"));
      assertEquals(1, got.getInteger("receiveCount"));
    } finally {
      node.destroyForcibly();
    }
    assertEquals("0", sqs.getQueueAttributes(b -> b.queueUrl(url).attributeNamesWithStrings(
        "ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings().values().stream()
        .reduce("0", (a, b) -> Integer.toString(Integer.parseInt(a) + Integer.parseInt(b))), "the ack deleted it");
  }
}
